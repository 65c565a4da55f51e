import Foundation
import EventSourcing
import NuvieDomain
import Testing

/// The catalog's revision, which search answers are remembered by, folded live and folded again.
@Suite struct CatalogRevisionTests {
    /// Folded again after the tagger's erasure, their tag no longer opens: the revision still moved
    /// on it and on the erasure, as live (it stayed at the film's addition, so `verify` found the read
    /// models different and a replay brought back answers remembered with the tag).
    @Test func aRefoldAfterAnErasureGivesTheRevisionTheLiveFoldGave() async throws {
        let harness = try ProjectionHarness()
        let t = Date(timeIntervalSince1970: 1_600_000_000)
        try await harness.given([
            ("movie-1", .movieAdded(MovieAdded(movieId: 1, title: "Stars", genres: ["Drama"], year: 2000, tmdbId: nil, imdbId: nil)), t),
            ("user-7", .movieTagged(MovieTagged(userId: 7, movieId: 1, tag: "space")), t),
        ])
        _ = try harness.runner.catchUp()
        try harness.keys.keys.destroy(7)
        try await harness.given([("user-7", .userErased(UserErased(userId: 7, initiator: .user)), t)])
        _ = try harness.runner.catchUp()
        let refolded = try harness.readModel(asOf: harness.log.headPosition)
        defer { try? refolded.close() }
        #expect(try refolded.canonicalDump() == harness.readModel())
    }
}
