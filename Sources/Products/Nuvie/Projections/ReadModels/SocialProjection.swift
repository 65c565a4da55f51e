import ReadModels
import EventSourcing
import NuvieDomain
import GRDB

/// The social graph: friendships (a row each way), pending requests, blocks, mutual-friend counts
/// kept exact on every change, and films friends recommended.
/// Folds the friendship events and `movie-recommended`; `user-erased` ends every friendship, request,
/// block and recommendation of the user.
struct SocialProjection: Projection {
    let name = "social"
    let version = 1
    let tables = ["friendship", "friendRequest", "userBlock", "mutualFriend", "movieRecommendation"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "friendship") { t in
            t.primaryKey { t.column("userId", .integer); t.column("friendId", .integer) }
            t.column("since", .integer).notNull()
        }
        try db.create(table: "friendRequest") { t in
            t.primaryKey { t.column("fromUserId", .integer); t.column("toUserId", .integer) }
            t.column("requestedAt", .integer).notNull()
            t.column("position", .integer).notNull()
        }
        try db.create(index: "friendRequestByRecipient", on: "friendRequest", columns: ["toUserId", "position"])
        try db.create(table: "userBlock") { t in
            t.primaryKey { t.column("userId", .integer); t.column("blockedUserId", .integer) }
            t.column("blockedAt", .integer).notNull()
        }
        try db.create(index: "userBlockByBlocked", on: "userBlock", columns: ["blockedUserId"])
        // How many friends two users have in common, kept for every pair that has any.
        try db.create(table: "mutualFriend") { t in
            t.primaryKey { t.column("userId", .integer); t.column("otherId", .integer) }
            t.column("mutualCount", .integer).notNull()
        }
        try db.create(table: "movieRecommendation") { t in
            t.primaryKey { t.column("toUserId", .integer); t.column("movieId", .integer); t.column("fromUserId", .integer) }
            t.column("recommendedAt", .integer).notNull()
            t.column("position", .integer).notNull()
        }
    }

    func apply(_ recorded: Recorded<NuvieEvent>, _ db: Database) throws {
        let at = recorded.epochSeconds
        switch recorded.event {
        case .friendRequested(let e):
            try db.run("INSERT OR REPLACE INTO friendRequest (fromUserId, toUserId, requestedAt, position) VALUES (?, ?, ?, ?)", [e.fromUserId, e.toUserId, at, recorded.position])
        case .friendRequestAnswered(let e):
            try deleteRequests(e.fromUserId, e.toUserId, db)
            if e.answer == .accepted { try befriend(e.fromUserId, e.toUserId, at: at, db) }
        case .friendRequestCancelled(let e):
            try deleteRequests(e.fromUserId, e.toUserId, db)
        case .friendRemoved(let e):
            try unfriend(e.userId, e.friendId, db)
        case .userBlocked(let e):
            try db.run("INSERT OR IGNORE INTO userBlock (userId, blockedUserId, blockedAt) VALUES (?, ?, ?)", [e.userId, e.blockedUserId, at])
            try deleteRequests(e.userId, e.blockedUserId, db)
            try unfriend(e.userId, e.blockedUserId, db)
        case .userUnblocked(let e):
            try db.run("DELETE FROM userBlock WHERE userId = ? AND blockedUserId = ?", [e.userId, e.blockedUserId])
        case .movieRecommended(let e):
            for recipient in e.toUserIds {
                try db.run("""
                    INSERT OR REPLACE INTO movieRecommendation (toUserId, movieId, fromUserId, recommendedAt, position)
                    VALUES (?, ?, ?, ?, ?)
                    """, [recipient, e.movieId, e.fromUserId, at, recorded.position])
            }
        case .userErased(let erased):
            try forget(erased.userId, db)
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .movieRated, .reviewLiked, .reviewUnliked,
             .watchlistAdded, .watchlistRemoved, .watchProgressed, .profileUpdated, .termsAccepted, .sessionStarted,
             .sessionRefreshed, .sessionsEnded:
            break
        }
    }

    private func forget(_ userId: Int64, _ db: Database) throws {
        for friend in try Int64.fetchAll(db, sql: "SELECT friendId FROM friendship WHERE userId = ?", arguments: [userId]) {
            try unfriend(userId, friend, db)
        }
        try db.run("DELETE FROM friendRequest WHERE fromUserId = ?1 OR toUserId = ?1", [userId])
        try db.run("DELETE FROM userBlock WHERE userId = ?1 OR blockedUserId = ?1", [userId])
        try db.run("DELETE FROM movieRecommendation WHERE fromUserId = ?1 OR toUserId = ?1", [userId])
    }

    private func deleteRequests(_ a: Int64, _ b: Int64, _ db: Database) throws {
        try db.run("DELETE FROM friendRequest WHERE (fromUserId = ?1 AND toUserId = ?2) OR (fromUserId = ?2 AND toUserId = ?1)", [a, b])
    }

    /// `a` becomes a common friend of `b` and each of `a`'s other friends, and the same for `b`.
    private func befriend(_ a: Int64, _ b: Int64, at: Int64, _ db: Database) throws {
        guard try !areFriends(a, b, db) else { return }
        try adjustMutualCounts(a, b, by: 1, db)
        try db.run("INSERT INTO friendship (userId, friendId, since) VALUES (?1, ?2, ?3), (?2, ?1, ?3)", [a, b, at])
    }

    private func unfriend(_ a: Int64, _ b: Int64, _ db: Database) throws {
        guard try areFriends(a, b, db) else { return }
        try db.run("DELETE FROM friendship WHERE (userId = ?1 AND friendId = ?2) OR (userId = ?2 AND friendId = ?1)", [a, b])
        try adjustMutualCounts(a, b, by: -1, db)
        try db.run("DELETE FROM mutualFriend WHERE mutualCount = 0 AND userId IN (?, ?)", [a, b])
        try db.run("DELETE FROM mutualFriend WHERE mutualCount = 0 AND otherId IN (?, ?)", [a, b])
    }

    /// Runs while `a` and `b` are not linked, so neither counts the other among their friends.
    private func adjustMutualCounts(_ a: Int64, _ b: Int64, by delta: Int, _ db: Database) throws {
        for (user, other) in [(a, b), (b, a)] {
            try db.run("""
                INSERT INTO mutualFriend (userId, otherId, mutualCount)
                SELECT ?1, friendId, ?3 FROM friendship WHERE userId = ?2
                UNION ALL
                SELECT friendId, ?1, ?3 FROM friendship WHERE userId = ?2
                ON CONFLICT (userId, otherId) DO UPDATE SET mutualCount = mutualCount + excluded.mutualCount
                """, [other, user, delta])
        }
    }

    private func areFriends(_ a: Int64, _ b: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM friendship WHERE userId = ? AND friendId = ?)", arguments: [a, b]) ?? false
    }
}
