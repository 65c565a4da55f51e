import CLAPACK
import Foundation

/// The "ibcf" model: item–item weights learned EASE-style (Steck 2019) from who rated what.
/// `weight(from: seed, to: target)` is exactly how much rating `seed` adds to `target`'s personal
/// score (negative: takes away).
///
/// Training (single precision): G = XᵀX over the films with at least `minimumRatings` ratings (X is
/// users × films, 1 where the user rated the film), P = (G + λI)⁻¹, B[i][j] = −P[i][j] / P[j][j] off
/// the diagonal, negative weights kept or dropped (max(B, 0)). B is not symmetric but P is, so the
/// model keeps P's upper triangle only, as C = D^−½·P·D^−½ (D = diag(P)) in 16 bits, and
/// B[i][j] = −C[i][j]·√P[i][i] / √P[j][j]: C is in (−1, 1), so 16 bits hold every entry to within
/// 1.5·10⁻⁵ (BENCHMARKS.md: what it moves NDCG@10 by). Deterministic: the same interactions give
/// the same weights, bit for bit. Beside them, `sequence`: which films people rated next to each other.
public struct ItemSimilarityModel: Sendable, Equatable {
    public struct Parameters: Sendable, Hashable {
        /// Films rated fewer times than this are left out of the item–item weights.
        public var minimumRatings: Int
        /// EASE's L2 regulariser.
        public var lambda: Double
        /// Keep negative weights, as plain EASE does and the served model now does too (its reasons
        /// are net sums: `Scorer`); dropped, every personal sum is of non-negative parts.
        public var keepsNegativeWeights: Bool
        /// At most this many films, the most rated first: the weights are n(n + 1)/2 16-bit numbers
        /// (16 MiB at 4,096, and 48 MiB more while retraining: the float triangle, then the new model
        /// beside it; the sequence weights at most 9.4 MiB more) and training inverts an n × n matrix, so a
        /// catalog where tens of thousands of films pass `minimumRatings` would otherwise need
        /// gigabytes and hours to train.
        public var maximumFilms: Int

        /// The defaults are the served model's: plain EASE's weights (`plainEASE`).
        public init(
            minimumRatings: Int = plainEASE.minimumRatings, lambda: Double = plainEASE.lambda, keepsNegativeWeights: Bool = true,
            maximumFilms: Int = 4_096
        ) {
            self.minimumRatings = minimumRatings
            self.lambda = lambda
            self.keepsNegativeWeights = keepsNegativeWeights
            self.maximumFilms = maximumFilms
        }

        /// Plain EASE, the evaluation's baseline, at what its own search chose on the bundled data's
        /// validation splits (`nuvie eval --split both --tune`, BENCHMARKS.md).
        public static let plainEASE = Parameters(minimumRatings: 10, lambda: 250, keepsNegativeWeights: true, maximumFilms: 4_096)
    }

    public let parameters: Parameters
    /// The films the weights cover, ascending; `index[movieId]` is a film's row and column.
    public let movieIds: [Int64]
    let index: [Int64: Int]
    /// C's upper triangle row by row (row i holds columns i…n − 1), times `Self.scale`, its diagonal 0.
    let correlations: [Int16]
    /// √P[i][i] for each film.
    let spread: [Double]
    public let sequence: SequenceNeighbours

    static let scale = Double(Int16.max)

    public var count: Int { movieIds.count }

    /// What the weights hold in memory.
    public var weightBytes: Int {
        correlations.count * MemoryLayout<Int16>.stride + spread.count * MemoryLayout<Double>.stride + sequence.bytes
    }

    public func covers(_ movieId: Int64) -> Bool { index[movieId] != nil }

    public func weight(from seed: Int64, to target: Int64) -> Double {
        guard let i = index[seed], let j = index[target] else { return 0 }
        return weight(row: i, column: j)
    }

    /// How strongly `target` is rated next to `seed` (`SequenceNeighbours`).
    public func sequenceWeight(from seed: Int64, to target: Int64) -> Double {
        guard let i = index[seed], let j = index[target] else { return 0 }
        return sequence.weight(row: i, column: j)
    }

    /// The weight at `row` (a seed's) and `column` (a target's), both from `index`.
    func weight(row i: Int, column j: Int) -> Double {
        let weight = -Double(correlations[Self.start(of: min(i, j), count) + abs(i - j)]) / Self.scale * spread[i] / spread[j]
        return parameters.keepsNegativeWeights ? weight : max(0, weight)
    }

    /// Σ over `seeds` (rows from `index`, each with a weight) of weight × the seed's row: every
    /// film's (indexed like `movieIds`) sum of what those seeds add to it.
    func sums(of seeds: [(row: Int, weight: Double)]) -> [Double] {
        sums(of: seeds, and: []).0
    }

    /// `sums(of:)` for two sets of seeds, in one pass over the weights.
    func sums(of first: [(row: Int, weight: Double)], and second: [(row: Int, weight: Double)]) -> ([Double], [Double]) {
        var coefficients = [SIMD2<Double>](repeating: .zero, count: count)
        for seed in first { coefficients[seed.row].x -= seed.weight * spread[seed.row] }
        for seed in second { coefficients[seed.row].y -= seed.weight * spread[seed.row] }
        // A weight is −C scaled, so dropping negative weights keeps C's negative entries only.
        let sums = parameters.keepsNegativeWeights
            ? accumulate(coefficients, { $0 }) : accumulate(coefficients, { min(0, $0) })
        var firstSums = [Double](repeating: 0, count: count), secondSums = firstSums
        for j in sums.indices {
            let divisor = Self.scale * spread[j]
            firstSums[j] = sums[j].x / divisor
            secondSums[j] = sums[j].y / divisor
        }
        return (firstSums, secondSums)
    }

    /// The same weights, with negative weights kept or dropped: that is read, not trained.
    func keepingNegativeWeights(_ keeps: Bool) -> ItemSimilarityModel {
        var parameters = parameters
        parameters.keepsNegativeWeights = keeps
        return ItemSimilarityModel(
            parameters: parameters, movieIds: movieIds, index: index, correlations: correlations, spread: spread, sequence: sequence
        )
    }

    /// Σ over films i of `coefficients[i]` × `kept`(C[i][j]), for every film j.
    @inline(__always) private func accumulate(_ coefficients: [SIMD2<Double>], _ kept: (Double) -> Double) -> [SIMD2<Double>] {
        let n = count
        let rows = coefficients.indices.filter { coefficients[$0] != .zero }
        let weights = rows.map { coefficients[$0] }
        var sums = [SIMD2<Double>](repeating: .zero, count: n)
        correlations.withUnsafeBufferPointer { c in
            guard let correlations = c.baseAddress else { return }
            sums.withUnsafeMutableBufferPointer { sums in
                rows.withUnsafeBufferPointer { rows in
                    weights.withUnsafeBufferPointer { weights in
                        var later = 0
                        for j in 0..<n {
                            // Row j holds C[j][k] for k ≥ j: what seed j adds to every later film, and
                            // what every later seed k adds to film j.
                            let row = correlations + (Self.start(of: j, n) - j)
                            if later < rows.count, rows[later] == j {
                                let a = weights[later]
                                later += 1
                                for k in (j + 1)..<n { sums[k] += a * kept(Double(row[k])) }
                            }
                            var total = SIMD2<Double>.zero
                            for t in later..<rows.count { total += weights[t] * kept(Double(row[rows[t]])) }
                            sums[j] += total
                        }
                    }
                }
            }
        }
        return sums
    }

    /// Where row `i` of an n × n upper triangle starts.
    @inline(__always) static func start(of i: Int, _ n: Int) -> Int { i * n - i * (i - 1) / 2 }

    public enum TrainingError: Error, CustomStringConvertible {
        case factorisationFailed(info: Int32)
        public var description: String {
            switch self {
            case .factorisationFailed(let info): "LAPACK could not invert the regularised Gram matrix (info \(info))"
            }
        }
    }

    /// Trains on `interactions` (user, film) pairs, each user's in the order they happened; a pair
    /// listed twice counts once, where it first came.
    public static func train(_ interactions: [(userId: Int64, movieId: Int64)], parameters: Parameters = .init()) throws -> ItemSimilarityModel {
        var ratingsPerMovie: [Int64: Int] = [:]
        var moviesPerUser: [Int64: Set<Int64>] = [:]
        var inOrder: [Int64: [Int64]] = [:]
        for (userId, movieId) in interactions where moviesPerUser[userId, default: []].insert(movieId).inserted {
            ratingsPerMovie[movieId, default: 0] += 1
            inOrder[userId, default: []].append(movieId)
        }
        let movieIds = mostRated(ratingsPerMovie, parameters).sorted()
        let index = Dictionary(uniqueKeysWithValues: movieIds.enumerated().map { ($0.element, $0.offset) })
        let n = movieIds.count
        guard n > 0 else {
            return ItemSimilarityModel(parameters: parameters, movieIds: [], index: [:], correlations: [], spread: [], sequence: .empty)
        }
        let sequence = SequenceNeighbours.train(
            inOrder.values.lazy.map { $0.compactMap { index[$0] } }, ratings: movieIds.map { ratingsPerMovie[$0] ?? 0 }, count: n
        )

        // The upper triangle row by row is LAPACK's lower one column by column: one n(n + 1)/2
        // matrix of Floats, inverted in place.
        var packed = [Float](repeating: 0, count: n * (n + 1) / 2)
        for movies in moviesPerUser.values {
            let rows = movies.compactMap { index[$0] }.sorted()
            for (offset, a) in rows.enumerated() {
                let base = start(of: a, n) - a
                for b in rows[offset...] { packed[base + b] += 1 }
            }
        }
        for i in 0..<n { packed[start(of: i, n)] += Float(parameters.lambda) }
        try invertSymmetricPositiveDefinite(&packed, n: n)

        let spread = (0..<n).map { Double(packed[start(of: $0, n)]).squareRoot() }
        var correlations = [Int16](repeating: 0, count: packed.count)
        for i in 0..<n {
            let base = start(of: i, n) - i
            for j in (i + 1)..<n {
                let c = Double(packed[base + j]) / (spread[i] * spread[j])
                correlations[base + j] = Int16(min(scale, max(-scale, (c * scale).rounded())))
            }
        }
        return ItemSimilarityModel(
            parameters: parameters, movieIds: movieIds, index: index, correlations: correlations, spread: spread, sequence: sequence
        )
    }

    /// The films with at least `minimumRatings` ratings, at most `maximumFilms` of them: the most
    /// rated, ties to the lower id.
    private static func mostRated(_ ratingsPerMovie: [Int64: Int], _ parameters: Parameters) -> [Int64] {
        let eligible = ratingsPerMovie.filter { $0.value >= parameters.minimumRatings }
        guard eligible.count > parameters.maximumFilms else { return Array(eligible.keys) }
        return eligible.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(parameters.maximumFilms).map(\.key)
    }

    /// In place, through LAPACK's Cholesky routines for packed storage.
    private static func invertSymmetricPositiveDefinite(_ packed: inout [Float], n: Int) throws {
        var order = Int32(n), info: Int32 = 0
        var uplo = CChar(UInt8(ascii: "L"))
        packed.withUnsafeMutableBufferPointer { a in spptrf_(&uplo, &order, a.baseAddress, &info) }
        guard info == 0 else { throw TrainingError.factorisationFailed(info: info) }
        packed.withUnsafeMutableBufferPointer { a in spptri_(&uplo, &order, a.baseAddress, &info) }
        guard info == 0 else { throw TrainingError.factorisationFailed(info: info) }
    }

    private init(
        parameters: Parameters, movieIds: [Int64], index: [Int64: Int], correlations: [Int16], spread: [Double], sequence: SequenceNeighbours
    ) {
        self.parameters = parameters
        self.movieIds = movieIds
        self.index = index
        self.correlations = correlations
        self.spread = spread
        self.sequence = sequence
    }
}
