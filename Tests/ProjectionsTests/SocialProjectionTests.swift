import EventSourcing
import NuvieCommands
import NuvieDomain
import EventLog
import Logging
import TestSupport
import Foundation
import GRDB
import Testing
@testable import ReadModels
@testable import NuvieProjections

@Suite(.timeLimit(.minutes(3))) struct SocialProjectionTests {
    /// Given a random history of friendships made, ended and blocked among a few users, the kept
    /// mutual-friend counts equal a count made from scratch from the friendships that remain.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func mutualFriendCountsStayExact(seed: UInt64) async throws {
        let harness = try ProjectionHarness(projections: [SocialProjection()])
        var random = Generator(state: seed)
        var events: [(stream: String, event: NuvieEvent, at: Date)] = []
        for _ in 0..<120 {
            let a = Int64.random(in: 1...7, using: &random), b = Int64.random(in: 1...7, using: &random)
            guard a != b else { continue }
            let event: NuvieEvent = switch Int.random(in: 0..<10, using: &random) {
            case 0..<6: .friendRequestAnswered(FriendRequestAnswered(fromUserId: a, toUserId: b, answer: .accepted))
            case 6..<9: .friendRemoved(FriendRemoved(userId: a, friendId: b))
            default: .userBlocked(UserBlocked(userId: a, blockedUserId: b))
            }
            events.append((NuvieStreams.friendship(a, b), event, Date(timeIntervalSince1970: 1_700_000_000)))
        }
        try await harness.given(events)
        try harness.runner.catchUp()

        try await harness.database.pool.read { db in
            let kept = try Row.fetchAll(db, sql: "SELECT userId, otherId, mutualCount FROM mutualFriend ORDER BY userId, otherId")
                .map { "\($0["userId"] as Int64)-\($0["otherId"] as Int64):\($0["mutualCount"] as Int)" }
            let recounted = try Row.fetchAll(db, sql: """
                SELECT a.userId, b.userId AS otherId, COUNT(*) AS mutualCount
                FROM friendship a JOIN friendship b ON a.friendId = b.friendId AND a.userId != b.userId
                GROUP BY a.userId, b.userId ORDER BY a.userId, b.userId
                """).map { "\($0["userId"] as Int64)-\($0["otherId"] as Int64):\($0["mutualCount"] as Int)" }
            #expect(kept == recounted)
            #expect(!kept.isEmpty)
        }
    }

    @Test func theFeedShowsFriendsActivityNewestFirstAndTasteFollowsRatings() async throws {
        let harness = try ProjectionHarness()
        let t = Date(timeIntervalSince1970: 1_700_000_000)
        try await harness.given([
            ("movie-1", .movieAdded(MovieAdded(movieId: 1, title: "Heat", genres: ["Action", "Crime"], year: 1995, tmdbId: nil, imdbId: nil)), t),
            ("user-1", .userRegistered(UserRegistered(userId: 1, name: "Ann", email: nil, avatarUrl: nil, provider: .dev)), t),
            ("user-2", .userRegistered(UserRegistered(userId: 2, name: "Bo", email: nil, avatarUrl: nil, provider: .dev)), t),
            ("friendship-1-2", .friendRequestAnswered(FriendRequestAnswered(fromUserId: 1, toUserId: 2, answer: .accepted)), t),
            ("rating-2-1", .movieRated(MovieRated(userId: 2, movieId: 1, rating: 3, previousRating: nil, comment: nil, isReview: false)), t),
            ("rating-2-1", .movieRated(MovieRated(userId: 2, movieId: 1, rating: 4.5, previousRating: 3, comment: "Great", isReview: true)), t),
            ("watch-2-1", .watchProgressed(WatchProgressed(userId: 2, movieId: 1, eventType: .paused, progressPercent: 30)), t),
            ("watch-2-1", .watchProgressed(WatchProgressed(userId: 2, movieId: 1, eventType: .completed, progressPercent: 100)), t),
        ])
        try harness.runner.catchUp()
        let feed = try ActivityQueries(database: harness.database).friendsActivity(of: 1, kind: nil, limit: 10, offset: 0)
        #expect(feed.items.map(\.kind) == [.watched, .review, .rating])
        #expect(feed.items.map(\.activityId) == [8, 6, 5])
        #expect(try ActivityQueries(database: harness.database).friendsActivity(of: 2, kind: .rating, limit: 10, offset: 0).totalCount == 0)

        let profile = try #require(try UserQueries(database: harness.database).profile(id: 2))
        #expect(profile.favoriteGenres == ["Action", "Crime"] && !profile.favoriteGenresChosen)
        #expect(profile.ratingsCount == 1 && profile.favoritesCount == 1 && profile.watchedCount == 1 && profile.friendsCount == 1)
        #expect(profile.mostWatchedGenre == "Action" && profile.averageRatingGiven == 4.5)
    }
}

@Suite(.timeLimit(.minutes(3))) struct TimeTravelTests {
    @Test func atEachPositionTheReadModelIsWhatTheLogSaidThen() async throws {
        let harness = try ProjectionHarness()
        let t = Date(timeIntervalSince1970: 1_700_000_000)
        let rated = { (rating: Double, previous: Double?) in
            NuvieEvent.movieRated(MovieRated(userId: 7, movieId: 1, rating: rating, previousRating: previous, comment: nil, isReview: false))
        }
        try await harness.given([
            ("movie-1", .movieAdded(MovieAdded(movieId: 1, title: "Heat", genres: ["Action"], year: 1995, tmdbId: nil, imdbId: nil)), t),
            ("rating-7-1", rated(2, nil), t),
            ("rating-7-1", rated(5, 2), t),
            ("watchlist-7-1", .watchlistAdded(WatchlistAdded(userId: 7, movieId: 1)), t),
        ])
        try harness.runner.catchUp()
        let ratingAt = { (position: UInt64) in try MovieQueries(database: try harness.readModel(asOf: position)).movie(id: 1, viewer: 7) }
        #expect(try ratingAt(1)?.viewerRating == nil)
        #expect(try ratingAt(2)?.viewerRating == 2 && ratingAt(2)?.ratingCount == 1)
        #expect(try ratingAt(3)?.viewerRating == 5 && ratingAt(3)?.inViewerWatchlist == false)
        #expect(try ratingAt(4)?.inViewerWatchlist == true)
        #expect(try harness.readModel(asOf: 4).canonicalDump() == harness.readModel())
    }
}

private struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }
}
