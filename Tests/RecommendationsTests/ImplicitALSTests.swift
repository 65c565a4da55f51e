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

    /// Rows are solved on every core, each lane every other row: each lands in its own place, as
    /// solved alone (13 rows, so the lanes are uneven).
    @Test func everyRowIsSolvedInItsPlace() throws {
        let films: [Float] = (0..<16).map { Float($0 % 5) / 4 - 0.3 }
        let rows = (0..<13).map { r in (0..<8).filter { ($0 + r) % 3 != 0 } }
        let solved = try ImplicitALS.solveAll(rows, against: films, parameters)
        let gram = ImplicitALS.gramian(films, parameters)
        for (r, row) in rows.enumerated() {
            #expect(Array(solved[r * 2..<(r + 1) * 2]) == (try ImplicitALS.solve(row, other: films, gram: gram, parameters)), "row \(r)")
        }
    }

    @Test func trainingIsSeededAndRepeatable() throws {
        let first = try ImplicitALS.train(userMovies: userMovies, parameters: parameters)
        let second = try ImplicitALS.train(userMovies: userMovies, parameters: parameters)
        #expect(first.filmFactors == second.filmFactors && first.movieIds == Array(1...8))
    }
}
