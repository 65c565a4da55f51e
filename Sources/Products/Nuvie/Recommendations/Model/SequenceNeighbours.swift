/// Which films people rate next to each other. Over each user's films in the order they rated or
/// finished them, every two films at most `reach` apart add 1 / their distance to the pair's count,
/// both ways; a weight is that count over √(the films' rating counts), and a pair is kept when it is
/// among the `neighbours` heaviest of either film: so the weights stay symmetric (a film's row is
/// also what every film adds to it), at most 2·`neighbours` a film on average. What comes after a
/// user's last ratings follows them (the temporal split), and a film held out from the middle of a
/// history sits next to films the user rated around it (the random one): BENCHMARKS.md has what each
/// gains. Rows and columns are an `ItemSimilarityModel`'s.
public struct SequenceNeighbours: Sendable, Equatable {
    public static let reach = 3
    public static let neighbours = 200

    /// Row r's entries are `starts[r]..<starts[r + 1]`, by ascending column.
    let starts: [Int32]
    let columns: [Int32]
    /// Times `scale`.
    let weights: [UInt16]

    public var bytes: Int {
        starts.count * MemoryLayout<Int32>.stride + columns.count * MemoryLayout<Int32>.stride + weights.count * MemoryLayout<UInt16>.stride
    }

    /// `sequences`: each user's rows (of `count` films), first time rated or finished first;
    /// `ratings[row]`: how many users rated or finished the film.
    static func train(_ sequences: some Sequence<[Int]>, ratings: [Int], count n: Int) -> SequenceNeighbours {
        // Every pair within reach, both ways, as one number that sorts by row, then column (rows below
        // 2²⁴: a model of more films could not be trained anyway): counts are kept in sixths
        // (6 / distance), so the sums are exact integers in any order. One sorted array of pairs
        // rather than a dictionary per film: a retraining's peak, 153 → 121 MB (BENCHMARKS.md).
        var pairs: [UInt64] = []
        for rows in sequences {
            for (offset, a) in rows.enumerated() {
                for distance in 1...reach where offset + distance < rows.count {
                    let b = rows[offset + distance], sixths = UInt64(6 / distance)
                    pairs.append(UInt64(a) << 40 | UInt64(b) << 8 | sixths)
                    pairs.append(UInt64(b) << 40 | UInt64(a) << 8 | sixths)
                }
            }
        }
        pairs.sort()
        // Each row's heaviest, kept both ways as row << 40 | column << 16 | weight, then sorted into rows.
        var kept: [UInt64] = []
        var index = 0
        while index < pairs.count {
            let a = pairs[index] >> 40
            var row: [(column: UInt64, weight: UInt16)] = []
            while index < pairs.count, pairs[index] >> 40 == a {
                let pair = pairs[index] >> 8
                var sixths = 0
                while index < pairs.count, pairs[index] >> 8 == pair {
                    sixths += Int(pairs[index] & 0xFF)
                    index += 1
                }
                let b = pair & 0xFFFF_FFFF
                row.append((b, quantised(Double(sixths) / 6 / (Double(ratings[Int(a)]) * Double(ratings[Int(b)])).squareRoot())))
            }
            for (b, weight) in row.sorted(by: { ($0.weight, $1.column) > ($1.weight, $0.column) }).prefix(neighbours) {
                kept.append(a << 40 | b << 16 | UInt64(weight))
                kept.append(b << 40 | a << 16 | UInt64(weight))
            }
        }
        pairs = []
        kept.sort()
        var starts = [Int32](repeating: 0, count: n + 1), columns: [Int32] = [], weights: [UInt16] = []
        for (index, entry) in kept.enumerated() where index == 0 || kept[index - 1] >> 16 != entry >> 16 {
            starts[Int(entry >> 40) + 1] += 1
            columns.append(Int32(entry >> 16 & 0xFF_FFFF))
            weights.append(UInt16(entry & 0xFFFF))
        }
        for row in 0..<n { starts[row + 1] += starts[row] }
        return SequenceNeighbours(starts: starts, columns: columns, weights: weights)
    }

    /// A weight is at most 1 (a pair is counted at most once per user, and at most as often as the
    /// rarer film is rated), so 16 bits hold it to within 8·10⁻⁶.
    static let scale = Double(UInt16.max)

    static func quantised(_ weight: Double) -> UInt16 { UInt16((min(1, weight) * scale).rounded()) }

    static let empty = SequenceNeighbours(starts: [0], columns: [], weights: [])

    /// The films the rows and columns cover.
    var count: Int { starts.count - 1 }

    /// Row `row` in full: its weight to every film, and every film's to it.
    func row(_ row: Int) -> [Double] {
        var full = [Double](repeating: 0, count: count)
        for entry in Int(starts[row])..<Int(starts[row + 1]) { full[Int(columns[entry])] = Double(weights[entry]) / Self.scale }
        return full
    }

    /// The weight from `row` to `column`; 0 when `column` is not among the row's neighbours.
    func weight(row: Int, column: Int) -> Double {
        let entries = Int(starts[row])..<Int(starts[row + 1])
        var low = entries.lowerBound, high = entries.upperBound
        while low < high {
            let middle = (low + high) / 2
            if Int(columns[middle]) < column { low = middle + 1 } else { high = middle }
        }
        return low < entries.upperBound && Int(columns[low]) == column ? Double(weights[low]) / Self.scale : 0
    }

    /// Σ over `seeds` of each of its two weights × the seed's row, for every film: two sums in one
    /// pass over the rows.
    func sums(of seeds: [(row: Int, weights: SIMD2<Double>)]) -> [SIMD2<Double>] {
        var sums = [SIMD2<Double>](repeating: .zero, count: count)
        for seed in seeds where seed.weights != .zero {
            for entry in Int(starts[seed.row])..<Int(starts[seed.row + 1]) {
                sums[Int(columns[entry])] += seed.weights * (Double(weights[entry]) / Self.scale)
            }
        }
        return sums
    }
}
