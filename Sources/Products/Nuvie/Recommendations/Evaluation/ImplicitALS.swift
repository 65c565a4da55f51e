import CLAPACK
import SeededRandom

/// The strong baseline beside plain EASE: implicit-feedback matrix factorisation by alternating
/// least squares (Hu, Koren and Volinsky 2008). Every rated film is an observation with confidence
/// 1 + α, every other film a zero with confidence 1; users and films get `factors` latent
/// dimensions, each side solved in closed form (Cholesky, OpenBLAS) given the other, `iterations`
/// times. A user's scores are Y·x with x solved from their films against the trained film factors Y
/// (the same step as training's last), so it ranks any history, cold ones included. Single
/// precision; seeded, so the same ratings give the same factors. Each row's solve stands alone, so
/// training solves its rows, and offline evaluation its users, on every core (OpenBLAS 0.3's
/// routines may be called from several threads at once).
public struct ImplicitALS: Sendable {
    /// The defaults are what `nuvie eval --split both --tune` chose on the bundled data's temporal
    /// validation split (the random one chose 32 factors, regularisation 10, confidence 2: within 2 %
    /// of it there).
    public struct Parameters: Sendable, Equatable {
        public var factors = 64
        public var regularisation = 100.0
        /// α above.
        public var confidence = 10.0
        public var iterations = 10
    }

    let parameters: Parameters
    let movieIds: [Int64]
    let index: [Int64: Int]
    /// Row-major: film `i`'s factors at `i * factors`.
    let filmFactors: [Float]
    /// YᵀY + λI, shared by every user's solve.
    let gram: [Float]

    enum TrainingError: Error { case notPositiveDefinite(info: Int32) }

    static func train(userMovies: [Int64: [Int64]], parameters: Parameters, seed: UInt64 = 42) throws -> ImplicitALS {
        let movieIds = Set(userMovies.values.joined()).sorted()
        let index = Dictionary(uniqueKeysWithValues: movieIds.enumerated().map { ($0.element, $0.offset) })
        let users = userMovies.keys.sorted().map { Array(Set(userMovies[$0] ?? [])).compactMap { index[$0] }.sorted() }
        var raters = [[Int]](repeating: [], count: movieIds.count)
        for (u, films) in users.enumerated() { for film in films { raters[film].append(u) } }
        let k = parameters.factors
        var random = SplitMix64(seed: seed)
        var films = (0..<(movieIds.count * k)).map { _ in Float.random(in: -0.01...0.01, using: &random) }
        var people = [Float](repeating: 0, count: users.count * k)
        for _ in 0..<parameters.iterations {
            people = try solveAll(users, against: films, parameters)
            films = try solveAll(raters, against: people, parameters)
        }
        return ImplicitALS(parameters: parameters, movieIds: movieIds, index: index, filmFactors: films, gram: gramian(films, parameters))
    }

    /// (YᵀY + λI) for the factors `other`, row-major k × k (symmetric: both triangles filled).
    static func gramian(_ other: [Float], _ parameters: Parameters) -> [Float] {
        let k = parameters.factors
        var gram = [Float](repeating: 0, count: k * k)
        var n = Int32(k), count = Int32(other.count / k), lda = Int32(k), ldc = Int32(k)
        var alpha: Float = 1, beta: Float = 0
        var uplo = CChar(UInt8(ascii: "U")), trans = CChar(UInt8(ascii: "N"))
        other.withUnsafeBufferPointer { a in
            gram.withUnsafeMutableBufferPointer { c in ssyrk_(&uplo, &trans, &n, &count, &alpha, a.baseAddress, &lda, &beta, c.baseAddress, &ldc) }
        }
        for i in 0..<k {
            gram[i * k + i] += Float(parameters.regularisation)
            // ssyrk filled Fortran's upper triangle, (j, i) for j < i, at i * k + j: mirror it.
            for j in 0..<i { gram[j * k + i] = gram[i * k + j] }
        }
        return gram
    }

    /// Every row's factors given the other side's: x = (YᵀY + α·Y_rᵀY_r + λI)⁻¹ · (1 + α)·Σ y over the row's observations.
    /// The rows are solved on every core.
    static func solveAll(_ rows: [[Int]], against other: [Float], _ parameters: Parameters) throws -> [Float] {
        let gram = gramian(other, parameters)
        return try EveryCore.map(rows.count) { try solve(rows[$0], other: other, gram: gram, parameters) }.flatMap { $0 }
    }

    static func solve(_ observed: [Int], other: [Float], gram: [Float], _ parameters: Parameters) throws -> [Float] {
        let k = parameters.factors
        var a = gram
        var b = [Float](repeating: 0, count: k)
        guard !observed.isEmpty else { return b }
        var gathered = [Float](repeating: 0, count: observed.count * k)
        for (o, i) in observed.enumerated() {
            for d in 0..<k {
                gathered[o * k + d] = other[i * k + d]
                b[d] += Float(1 + parameters.confidence) * other[i * k + d]
            }
        }
        var n = Int32(k), count = Int32(observed.count), lda = Int32(k), ldc = Int32(k), one = Int32(1), info: Int32 = 0
        var alpha = Float(parameters.confidence), beta: Float = 1
        var uplo = CChar(UInt8(ascii: "U")), trans = CChar(UInt8(ascii: "N"))
        gathered.withUnsafeBufferPointer { g in
            a.withUnsafeMutableBufferPointer { c in ssyrk_(&uplo, &trans, &n, &count, &alpha, g.baseAddress, &lda, &beta, c.baseAddress, &ldc) }
        }
        a.withUnsafeMutableBufferPointer { a in
            b.withUnsafeMutableBufferPointer { b in sposv_(&uplo, &n, &one, a.baseAddress, &lda, b.baseAddress, &ldc, &info) }
        }
        guard info == 0 else { throw TrainingError.notPositiveDefinite(info: info) }
        return b
    }

    /// The best `limit` films for a user who rated `seeds`, the seeds left out.
    func top(seeds: [Int64], limit: Int) throws -> [Int64] {
        let k = parameters.factors
        let x = try Self.solve(seeds.compactMap { index[$0] }, other: filmFactors, gram: gram, parameters)
        let scores = (0..<movieIds.count).map { i in Double((0..<k).reduce(Float(0)) { $0 + filmFactors[i * k + $1] * x[$1] }) }
        return OfflineEvaluation.best(scores, of: movieIds, excluding: seeds, limit: limit)
    }
}
