import ReadModels
import NuvieCommands
import NuvieDomain
import Foundation
import Logging
import TestSupport
import Testing
@testable import NuvieProjections

private let later = Date(timeIntervalSince1970: 1_705_314_600)  // 2024-01-15T10:30:00Z

/// Projections that add up a whole batch (movie stats, taste, last activity, activity counts, search rows) must leave
/// exactly the rows, and rowids, of folding one event at a time.
@Suite(.timeLimit(.minutes(3))) struct BatchFoldTests {
    @Test(arguments: [2, 7, 50, 10_000])
    func aBatchLeavesWhatOneEventAtATimeLeaves(batchSize: Int) async throws {
        let harness = try ProjectionHarness()
        _ = try await MovieLensImporter(store: harness.store).importDirectory(replayFixtures.appendingPathComponent("movielens-taste"))
        try await harness.given([
            ("movie-3", .movieTagged(MovieTagged(userId: 1, movieId: 3, tag: "space")), later),
            ("rating-1-3", .movieRated(MovieRated(userId: 1, movieId: 3, rating: 2, previousRating: 4.5, comment: nil, isReview: false)), later),
            ("movie-3", .movieTagged(MovieTagged(userId: 2, movieId: 3, tag: "opera")), later),
            ("movie-3", .movieAdded(MovieAdded(movieId: 3, title: "Star Voyage III, The (1984)", genres: ["Drama", "Romance"], year: 1984, tmdbId: nil, imdbId: nil)), later),
            ("rating-2-3", .movieRated(MovieRated(userId: 2, movieId: 3, rating: 5, previousRating: nil, comment: "moving", isReview: true)), later),
            ("user-2", .profileUpdated(ProfileUpdated(userId: 2, name: "Two", bio: "films", avatarUrl: nil, favoriteGenres: ["Drama"])), later),
            ("rating-1-3", .movieRated(MovieRated(userId: 1, movieId: 3, rating: 4, previousRating: 2, comment: nil, isReview: false)), later.addingTimeInterval(60)),
            ("movie-3", .movieTagged(MovieTagged(userId: 1, movieId: 3, tag: "space")), later),
        ])

        let oneByOne = try ReadDatabase(path: harness.directory.url.appendingPathComponent("one/read.sqlite").path)
        try ProjectionRunner(log: harness.log, personalData: harness.keys, database: oneByOne, batchSize: 1, logger: Logger(label: "test")).catchUp()
        let batched = try ReadDatabase(path: harness.directory.url.appendingPathComponent("batched/read.sqlite").path)
        try ProjectionRunner(log: harness.log, personalData: harness.keys, database: batched, batchSize: batchSize, logger: Logger(label: "test")).catchUp()

        #expect(try batched.tableDumps() == (try oneByOne.tableDumps()))
        let stats = try #require(try MovieQueries(database: batched).movie(id: 3, viewer: 1))
        #expect(stats.genres == ["Drama", "Romance"] && stats.viewerRating == 4)
    }
}
