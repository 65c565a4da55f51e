@testable import NuvieRecommendations
import Testing

/// The ALS baseline on two taste groups: users 1–6 watch films 1–4, users 7–12 films 5–8 (two
/// factors: more would fit eight films exactly and rank the unwatched ones at random).
@Suite(.timeLimit(.minutes(2))) struct ImplicitALSTests {
    let userMovies: [Int64: [Int64]] = Dictionary(uniqueKeysWithValues: (Int64(1)...12).map { user in
        (user, (user <= 6 ? [1, 2, 3, 4] : [5, 6, 7, 8]).filter { ($0 + user) % 4 != 0 })
    })
    let parameters = ImplicitALS.Parameters(factors: 2, regularisation: 1, confidence: 10, iterations: 10)

    @Test func aUserIsOfferedTheRestOfTheirGroupFirst() throws {
        let model = try ImplicitALS.train(userMovies: userMovies, parameters: parameters)
        #expect(Set(try model.top(seeds: [1, 2], limit: 2)) == [3, 4])
        #expect(Set(try model.top(seeds: [6, 7], limit: 2)) == [5, 8])
        #expect(try model.top(seeds: [1, 2], limit: 10).count == 6, "every film but the seeds")
    }

    /// Rows are solved on every core: each lands in its own place, as solved alone (13 rows, so the
    /// cores take uneven shares; one row with nothing observed).
    @Test func everyRowIsSolvedInItsPlace() throws {
        let k = parameters.factors
        let films: [Float] = (0..<(8 * k)).map { Float($0 % 5) / 4 - 0.3 }
        let rows = (0..<13).map { r in r == 5 ? [] : (0..<8).filter { ($0 + r) % 3 != 0 } }
        let solved = try ImplicitALS.solveAll(rows, against: films, parameters)
        let gram = ImplicitALS.gramian(films, parameters)
        #expect(solved.count == rows.count * k)
        for (r, row) in rows.enumerated() {
            #expect(Array(solved[r * k..<(r + 1) * k]) == (try ImplicitALS.solve(row, other: films, gram: gram, parameters)), "row \(r)")
        }
    }

    /// Every index's result in its place, whatever core worked it out; a failure thrown.
    @Test func everyCoreGivesItsResultsInOrder() throws {
        #expect(EveryCore.map(101) { $0 * $0 } == (0..<101).map { $0 * $0 })
        #expect(EveryCore.map(0) { $0 }.isEmpty)
        struct Refused: Error {}
        #expect(throws: Refused.self) { try EveryCore.map(10) { index throws(Refused) in if index == 7 { throw Refused() }; return index } }
    }

    @Test func trainingIsSeededAndRepeatable() throws {
        let first = try ImplicitALS.train(userMovies: userMovies, parameters: parameters)
        let second = try ImplicitALS.train(userMovies: userMovies, parameters: parameters)
        #expect(first.filmFactors == second.filmFactors && first.movieIds == Array(1...8))
    }
}
