import ReadModels
import NuvieCommands
import NuvieDomain
import EventSourcing
import Foundation
import GRDB
import TestSupport
import Testing
@testable import NuvieProjections

private let later = Date(timeIntervalSince1970: 1_705_314_600)  // 2024-01-15T10:30:00Z

/// The one-user fast path of time travel must show exactly what a full fold to the same position shows.
@Suite(.timeLimit(.minutes(3))) struct UserAsOfTests {
    @Test func oneUsersViewAtAnyPositionIsTheFullFoldsView() async throws {
        let harness = try ProjectionHarness()
        _ = try await MovieLensImporter(store: harness.store).importDirectory(replayFixtures.appendingPathComponent("movielens-taste"))
        try harness.runner.catchUp()
        let friendships = try await harness.database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT userId, friendId FROM friendship WHERE userId < friendId ORDER BY userId, friendId").map { ($0[0] as Int64, $0[1] as Int64) }
        }
        let (friendA, friendB) = try #require(friendships.first)
        let strangers = try #require((2...36).map { (Int64(1), Int64($0)) }.first { pair in !friendships.contains { $0 == pair } })
        // Renames, watching, a new friendship, a block ending one, a re-rating.
        try await harness.given([
            ("user-\(friendB)", .profileUpdated(ProfileUpdated(userId: friendB, name: "Renamed", bio: "new", avatarUrl: "https://example.com/a.png", favoriteGenres: ["Drama"])), later),
            ("watch-\(friendB)-1", .watchProgressed(WatchProgressed(userId: friendB, movieId: 1, eventType: .started, progressPercent: 5)), later),
            ("watch-\(friendB)-1", .watchProgressed(WatchProgressed(userId: friendB, movieId: 1, eventType: .paused, progressPercent: 40)), later),
            ("watchlist-\(friendB)-2", .watchlistAdded(WatchlistAdded(userId: friendB, movieId: 2)), later),
            ("friendship-\(strangers.0)-\(strangers.1)", .friendRequested(FriendRequested(fromUserId: strangers.0, toUserId: strangers.1)), later),
            ("friendship-\(strangers.0)-\(strangers.1)", .friendRequestAnswered(FriendRequestAnswered(fromUserId: strangers.0, toUserId: strangers.1, answer: .accepted)), later),
            ("rating-\(strangers.1)-4", .movieRated(MovieRated(userId: strangers.1, movieId: 4, rating: 5, previousRating: nil, comment: "yes", isReview: true)), later),
            ("friendship-\(friendA)-\(friendB)", .userBlocked(UserBlocked(userId: friendA, blockedUserId: friendB)), later),
            ("watch-\(friendB)-1", .watchProgressed(WatchProgressed(userId: friendB, movieId: 1, eventType: .completed, progressPercent: 100)), later),
            ("user-\(strangers.1)", .userErased(UserErased(userId: strangers.1, initiator: .user)), later),
        ])
        let head = harness.log.headPosition
        for position in [1, head / 3, head / 2, head - 5, head - 2, head] {
            let full = try harness.readModel(asOf: position)
            for user in Int64(1)...36 {
                let fast = try UserAsOf.readModels(of: user, at: position, in: harness.log, personalData: harness.keys)
                #expect(try View(fast, user) == View(full, user), "user \(user) at \(position)")
                try fast.close()
            }
            try full.close()
        }
    }
}

/// What `nuvie as-of --user` shows of a user.
private struct View: Equatable {
    var profile: UserProfile?
    var ratings: [String]
    var feed: [ActivityItem]

    init(_ database: ReadDatabase, _ user: Int64) throws {
        profile = try UserQueries(database: database).profile(id: user)
        ratings = try UserQueries(database: database).ratings(of: user).map { "\($0.movieId):\($0.rating):\($0.ratedAt)" }
        feed = try ActivityQueries(database: database).friendsActivity(of: user, kind: nil, limit: 20, offset: 0).items
    }
}
