import CLAPACK
import Foundation

/// The "ibcf" model: item–item weights learned EASE-style (Steck 2019) from who rated what.
/// `weight(from: seed, to: target)` is exactly how much rating `seed` adds to `target`'s personal
/// score (negative: takes away).
///
/// Training (single precision): G = XᵀX over the films with at least `minimumRatings` ratings (X is users × films, 1 where
/// the user rated the film), P = (G + λI)⁻¹, B[i][j] = −P[i][j] / P[j][j] off the diagonal, negative
/// weights kept or dropped (max(B, 0)). Deterministic: the same interactions give the same weights, bit for bit.
public struct ItemSimilarityModel: Sendable, Equatable {
    public struct Parameters: Sendable, Hashable {
        /// Films rated fewer times than this are left out of the item–item weights.
        public var minimumRatings: Int
        /// EASE's L2 regulariser.
        public var lambda: Double
        /// Keep negative weights, as plain EASE does and the served model now does too (its reasons
        /// are net sums: `Scorer`); dropped, every personal sum is of non-negative parts.
        public var keepsNegativeWeights: Bool
        /// At most this many films, the most rated first: the weights are `count²` floats (64 MiB at
        /// 4,096) and training inverts that matrix, so a catalog where tens of thousands of films pass
        /// `minimumRatings` would otherwise need gigabytes and hours to train.
        public var maximumFilms: Int

        /// The defaults are the served model's, chosen by `nuvie eval --split both --tune` on the bundled
        /// data's validation splits (BENCHMARKS.md).
        public init(minimumRatings: Int = 20, lambda: Double = 500, keepsNegativeWeights: Bool = true, maximumFilms: Int = 4_096) {
            self.minimumRatings = minimumRatings
            self.lambda = lambda
            self.keepsNegativeWeights = keepsNegativeWeights
            self.maximumFilms = maximumFilms
        }

        /// Plain EASE, the evaluation's baseline, at what its own search chose on both validation splits.
        public static let plainEASE = Parameters(minimumRatings: 10, lambda: 250, keepsNegativeWeights: true)
    }

    public let parameters: Parameters
    /// The films the weights cover, ascending; `index[movieId]` is a film's row and column.
    public let movieIds: [Int64]
    let index: [Int64: Int]
    /// Row-major: `weights[seed * count + target]`.
    let weights: [Float]

    public var count: Int { movieIds.count }

    /// What the weights hold in memory.
    public var weightBytes: Int { weights.count * MemoryLayout<Float>.stride }

    public func covers(_ movieId: Int64) -> Bool { index[movieId] != nil }

    public func weight(from seed: Int64, to target: Int64) -> Double {
        guard let i = index[seed], let j = index[target] else { return 0 }
        return weight(row: i, column: j)
    }

    /// The weight at `row` (a seed's) and `column` (a target's), both from `index`.
    func weight(row: Int, column: Int) -> Double {
        Double(weights[row * count + column])
    }

    /// Adds `row` (a seed's, from `index`), times `weight`, into `scores` (indexed like `movieIds`).
    func accumulate(row i: Int, weight: Double = 1, into scores: inout [Double]) {
        let n = count
        precondition(scores.count == n)
        weights.withUnsafeBufferPointer { w in
            let row = UnsafeBufferPointer(rebasing: w[(i * n)..<(i * n + n)])
            scores.withUnsafeMutableBufferPointer { sums in
                for j in 0..<n { sums[j] += weight * Double(row[j]) }
            }
        }
    }

    public enum TrainingError: Error, CustomStringConvertible {
        case factorisationFailed(info: Int32)
        public var description: String {
            switch self {
            case .factorisationFailed(let info): "LAPACK could not invert the regularised Gram matrix (info \(info))"
            }
        }
    }

    /// Trains on `interactions` (user, film) pairs; a pair listed twice counts once.
    public static func train(_ interactions: [(userId: Int64, movieId: Int64)], parameters: Parameters = .init()) throws -> ItemSimilarityModel {
        var ratingsPerMovie: [Int64: Int] = [:]
        var moviesPerUser: [Int64: Set<Int64>] = [:]
        for (userId, movieId) in interactions where moviesPerUser[userId, default: []].insert(movieId).inserted {
            ratingsPerMovie[movieId, default: 0] += 1
        }
        let movieIds = mostRated(ratingsPerMovie, parameters).sorted()
        let index = Dictionary(uniqueKeysWithValues: movieIds.enumerated().map { ($0.element, $0.offset) })
        let n = movieIds.count
        guard n > 0 else { return ItemSimilarityModel(parameters: parameters, movieIds: [], index: [:], weights: []) }

        // Column-major and row-major agree: the matrix is symmetric. Single precision, and the
        // weights are computed in the same buffer, so training needs one n × n matrix of Floats.
        var matrix = [Float](repeating: 0, count: n * n)
        for movies in moviesPerUser.values {
            let rows = movies.compactMap { index[$0] }
            for a in rows { for b in rows { matrix[a * n + b] += 1 } }
        }
        for i in 0..<n { matrix[i * n + i] += Float(parameters.lambda) }
        try invertSymmetricPositiveDefinite(&matrix, n: n)

        let diagonal = (0..<n).map { matrix[$0 * n + $0] }
        for i in 0..<n {
            for j in 0..<n {
                let b = i == j ? 0 : -matrix[i * n + j] / diagonal[j]
                matrix[i * n + j] = parameters.keepsNegativeWeights ? b : max(0, b)
            }
        }
        return ItemSimilarityModel(parameters: parameters, movieIds: movieIds, index: index, weights: matrix)
    }

    /// The films with at least `minimumRatings` ratings, at most `maximumFilms` of them: the most
    /// rated, ties to the lower id.
    private static func mostRated(_ ratingsPerMovie: [Int64: Int], _ parameters: Parameters) -> [Int64] {
        let eligible = ratingsPerMovie.filter { $0.value >= parameters.minimumRatings }
        guard eligible.count > parameters.maximumFilms else { return Array(eligible.keys) }
        return eligible.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(parameters.maximumFilms).map(\.key)
    }

    /// In place, through LAPACK's Cholesky routines; fills both triangles.
    private static func invertSymmetricPositiveDefinite(_ matrix: inout [Float], n: Int) throws {
        var order = Int32(n), leading = Int32(n), info: Int32 = 0
        var uplo = CChar(UInt8(ascii: "L"))
        matrix.withUnsafeMutableBufferPointer { a in spotrf_(&uplo, &order, a.baseAddress, &leading, &info) }
        guard info == 0 else { throw TrainingError.factorisationFailed(info: info) }
        matrix.withUnsafeMutableBufferPointer { a in spotri_(&uplo, &order, a.baseAddress, &leading, &info) }
        guard info == 0 else { throw TrainingError.factorisationFailed(info: info) }
        // Fortran's lower triangle (column-major) is our upper one: mirror it down.
        for column in 0..<n {
            for row in (column + 1)..<n { matrix[row * n + column] = matrix[column * n + row] }
        }
    }

    private init(parameters: Parameters, movieIds: [Int64], index: [Int64: Int], weights: [Float]) {
        self.parameters = parameters
        self.movieIds = movieIds
        self.index = index
        self.weights = weights
    }
}
