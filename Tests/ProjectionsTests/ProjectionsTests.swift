import ReadModels
import EventSourcing
import NuvieCommands
import NuvieDomain
import EventLog
import Foundation
import TestSupport
import GRDB
import Testing
@testable import NuvieProjections

private let t0 = Date(timeIntervalSince1970: 1_705_314_600)  // 2024-01-15T10:30:00Z

private func rated(_ user: Int64, _ movie: Int64, _ rating: Double, previous: Double? = nil, review: Bool = false, comment: String? = nil) -> NuvieEvent {
    .movieRated(MovieRated(userId: user, movieId: movie, rating: rating, previousRating: previous, comment: comment, isReview: review))
}

@Suite(.timeLimit(.minutes(3))) struct ProjectionsTests {
    @Test func movieStatsReplaceARerating() async throws {
        let harness = try ProjectionHarness()
        try await harness.given([
            ("movie-1", .movieAdded(MovieAdded(movieId: 1, title: "Heat", genres: ["Action"], year: 1995, tmdbId: 949, imdbId: nil)), t0),
            ("rating-1-1", rated(1, 1, 3), t0),
            ("rating-2-1", rated(2, 1, 4.5), t0),
            ("rating-1-1", rated(1, 1, 5, previous: 3), t0),
        ])
        try harness.runner.catchUp()

        let movie = try #require(try MovieQueries(database: harness.database).movie(id: 1, viewer: 1))
        #expect(movie.ratingCount == 2)
        #expect(movie.ratingAverage == 4.75)
        #expect(movie.viewerRating == 5)
        #expect(movie.year == 1995)
        #expect(movie.genres == ["Action"])
    }

    @Test func watchlistAndWatchStatusFollowTheLatestEvent() async throws {
        let harness = try ProjectionHarness()
        try await harness.given([
            ("movie-1", .movieAdded(MovieAdded(movieId: 1, title: "Heat", genres: [], year: nil, tmdbId: nil, imdbId: nil)), t0),
            ("watchlist-7-1", .watchlistAdded(WatchlistAdded(userId: 7, movieId: 1)), t0),
            ("watch-7-1", .watchProgressed(WatchProgressed(userId: 7, movieId: 1, eventType: .started, progressPercent: 10)), t0),
            ("watch-7-1", .watchProgressed(WatchProgressed(userId: 7, movieId: 1, eventType: .paused, progressPercent: 55)), t0),
            ("watchlist-8-1", .watchlistAdded(WatchlistAdded(userId: 8, movieId: 1)), t0),
            ("watchlist-8-1", .watchlistRemoved(WatchlistRemoved(userId: 8, movieId: 1)), t0),
        ])
        try harness.runner.catchUp()
        let queries = MovieQueries(database: harness.database)
        let seven = try #require(try queries.movie(id: 1, viewer: 7))
        #expect(seven.inViewerWatchlist && seven.viewerWatchStatus == "paused")
        let eight = try #require(try queries.movie(id: 1, viewer: 8))
        #expect(!eight.inViewerWatchlist && eight.viewerWatchStatus == nil)
        #expect(try queries.watchlist(userId: 7, limit: 10, offset: 0).items.map(\.movieId) == [1])
    }

    @Test func replayingARecordedLogProducesTheRecordedReadModel() async throws {
        let harness = try ProjectionHarness()
        try await harness.given(jsonLines: replayFixtures.appendingPathComponent("rating-review-like.jsonl"))
        try harness.runner.catchUp()
        try expectMatchesFixture(try harness.readModel(), "rating-review-like.expected.json")
    }

    @Test func importingTheTinyMovieLensSetProducesTheRecordedReadModel() async throws {
        let harness = try ProjectionHarness()
        let summary = try await MovieLensImporter(store: harness.store).importDirectory(replayFixtures.appendingPathComponent("movielens-tiny"))
        #expect(summary.movies == 5 && summary.users == 3 && summary.ratings == 6 && summary.tags == 2)
        try harness.runner.catchUp()
        try expectMatchesFixture(try harness.readModel(), "movielens-tiny.expected.json")

        let again = try await MovieLensImporter(store: harness.store).importDirectory(replayFixtures.appendingPathComponent("movielens-tiny"))
        #expect(again.newEvents == 0)
    }

    /// The ids, wire names and streams an import derives are the ones every existing log holds: a
    /// change to them would make a data directory's next demo import append the demo a second time.
    @Test func theTinyMovieLensSetImportsUnderTheIdsExistingLogsHold() async throws {
        let harness = try ProjectionHarness()
        _ = try await MovieLensImporter(store: harness.store).importDirectory(replayFixtures.appendingPathComponent("movielens-tiny"))
        let recorded = try harness.log.read(from: 1, limit: .max).map { "\($0.position) \($0.id) \($0.type) v\($0.schemaVersion) \($0.streamId)" }
        try expectMatchesFixture(recorded.joined(separator: "\n"), "movielens-tiny.event-ids.txt")
    }

    @Test(arguments: [1, 4, 7, 10, 11])
    func aRunnerStoppedAnywhereResumesExactly(stopAt: UInt64) async throws {
        let harness = try ProjectionHarness()
        try await harness.given(jsonLines: replayFixtures.appendingPathComponent("rating-review-like.jsonl"))
        try harness.runner.catchUp(until: stopAt)
        #expect(try harness.runner.status().allSatisfy { $0.position == stopAt })

        try harness.restart()
        try harness.runner.catchUp()

        let clean = try ProjectionHarness()
        try await clean.given(jsonLines: replayFixtures.appendingPathComponent("rating-review-like.jsonl"))
        try clean.runner.catchUp()
        #expect(try harness.readModel() == (try clean.readModel()))
        #expect(try harness.runner.status().allSatisfy { $0.position == 12 })
    }

    @Test func bumpingAProjectionVersionRebuildsItFromTheStart() async throws {
        let directory = try TemporaryDirectory()
        let before: String
        do {
            let harness = try ProjectionHarness(directory: directory)
            try await harness.given(jsonLines: replayFixtures.appendingPathComponent("rating-review-like.jsonl"))
            try harness.runner.catchUp()
            before = try harness.readModel()
        }
        var projections = NuvieReadModels.all
        let next = CatalogProjection().version + 1
        projections[0] = Versioned(base: CatalogProjection(), version: next)
        let bumped = try ProjectionHarness(projections: projections, directory: directory)
        let status = try bumped.runner.status()
        #expect(status.first { $0.name == "catalog" }.map { ($0.version, $0.position) }! == (next, 0))
        #expect(status.filter { $0.name != "catalog" }.allSatisfy { $0.position == 12 })
        try bumped.runner.catchUp()
        #expect(try bumped.readModel() == before)
    }

    @Test func aProjectionThatCannotApplyAnEventStopsThereAndTheOthersGoOn() async throws {
        var projections = NuvieReadModels.all
        projections.append(FailsOnReview())
        let harness = try ProjectionHarness(projections: projections)
        try await harness.given(jsonLines: replayFixtures.appendingPathComponent("rating-review-like.jsonl"))
        try harness.runner.catchUp()

        let status = try harness.runner.status()
        let failing = try #require(status.first { $0.name == "fails-on-review" })
        #expect(failing.failedPosition == 7)
        #expect(failing.position == 6)
        #expect(failing.failure?.contains("reviews are not supported") == true)
        #expect(status.filter { $0.name != "fails-on-review" }.allSatisfy { $0.position == 12 && $0.failedPosition == nil })
        #expect(harness.runner.appliedPosition == 12)
    }

    @Test func readYourWritesWaitsForTheRunner() async throws {
        let harness = try ProjectionHarness()
        try await harness.given([("movie-1", .movieAdded(MovieAdded(movieId: 1, title: "Heat", genres: [], year: nil, tmdbId: nil, imdbId: nil)), t0)])
        #expect(await harness.runner.waitUntilApplied(1, timeout: .milliseconds(50)) == false)
        let runner = harness.runner
        let running = Task { try await runner.run() }
        #expect(await runner.waitUntilApplied(1, timeout: .seconds(5)))
        try await harness.given([("rating-1-1", rated(1, 1, 4), t0)])
        #expect(await runner.waitUntilApplied(2, timeout: .seconds(30)))
        running.cancel()
        _ = await running.result
    }
}

/// Another version of a projection with the same fold, as a version bump would ship.
private struct Versioned: Projection {
    let base: any Projection<NuvieEvent>
    let version: Int
    var name: String { base.name }
    var tables: [String] { base.tables }
    func createSchema(_ db: Database) throws { try base.createSchema(db) }
    func apply(_ event: Recorded<NuvieEvent>, _ db: Database) throws { try base.apply(event, db) }
    func apply(_ events: ArraySlice<Recorded<NuvieEvent>>, _ db: Database) throws { try base.apply(events, db) }
}

private struct FailsOnReview: Projection {
    struct Unsupported: Error, CustomStringConvertible { var description: String { "reviews are not supported" } }
    let name = "fails-on-review"
    let version = 1
    let tables = ["seenEvent"]
    func createSchema(_ db: Database) throws { try db.create(table: "seenEvent") { $0.primaryKey("position", .integer) } }
    func apply(_ event: Recorded<NuvieEvent>, _ db: Database) throws {
        if case .movieRated(let rated) = event.event, rated.isReview { throw Unsupported() }
        try db.execute(sql: "INSERT INTO seenEvent (position) VALUES (?)", arguments: [event.position])
    }
}
