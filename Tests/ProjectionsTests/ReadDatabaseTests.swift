import NuvieDomain
import Foundation
import GRDB
@testable import NuvieProjections
import Testing

/// Request paths read through the read database's read-only connections.
@Suite(.timeLimit(.minutes(3))) struct ReadDatabaseTests {
    @Test func readsSeeWhatTheRunnerWroteAndFailOnceClosed() async throws {
        let harness = try ProjectionHarness()
        let movies = MovieQueries(database: harness.database)
        #expect(try movies.movie(id: 1, viewer: nil) == nil)
        try await harness.given([("movie-1", .movieAdded(MovieAdded(movieId: 1, title: "Heat", genres: ["Crime"], year: 1995, tmdbId: nil, imdbId: nil)), Date())])
        try harness.runner.catchUp()
        #expect(try movies.movie(id: 1, viewer: nil)?.title == "Heat")
        #expect(try movies.summaries(ids: [1]).count == 1)

        try harness.database.close()
        #expect(throws: DatabaseError.self) { try movies.movie(id: 1, viewer: nil) }
        #expect(throws: DatabaseError.self) { try movies.summaries(ids: [1]) }
    }
}
