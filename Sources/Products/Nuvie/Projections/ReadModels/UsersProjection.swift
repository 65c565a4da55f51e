import ReadModels
import EventSourcing
import NuvieDomain
import Foundation
import GRDB

/// User profiles: name, email, avatar, bio, chosen favourite genres, accepted terms, when they
/// joined and when they last did anything. Folds `user-registered`, `profile-updated`,
/// `terms-accepted`, `user-erased`, and the time of every event a user caused. An erased user keeps
/// a row, named `Deleted user` with nothing else personal, so that anything still pointing at them
/// has a name to show; queries of users skip it (`erasedAt`).
struct UsersProjection: Projection {
    static let erasedName = "Deleted user"
    let name = "users"
    let version = 3
    let tables = ["user"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "user") { t in
            t.primaryKey("userId", .integer)
            t.column("name", .text).notNull()
            t.column("email", .text)
            t.column("avatarUrl", .text)
            t.column("bio", .text)
            t.column("favoriteGenres", .text)
            t.column("termsVersion", .text)
            t.column("termsAcceptedAt", .integer)
            t.column("registeredAt", .integer).notNull()
            t.column("lastActiveAt", .integer).notNull()
            t.column("erasedAt", .integer)
        }
    }

    func apply(_ recorded: Recorded<NuvieEvent>, _ db: Database) throws {
        let at = recorded.epochSeconds
        switch recorded.event {
        case .userRegistered(let user):
            try db.run("""
                INSERT OR REPLACE INTO user (userId, name, email, avatarUrl, registeredAt, lastActiveAt) VALUES (?, ?, ?, ?, ?, ?)
                """, [user.userId, user.name ?? Self.erasedName, user.email, user.avatarUrl, at, at])
        case .profileUpdated(let profile):
            let genres = try profile.favoriteGenres.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
            try db.run(
                "UPDATE user SET name = ?, bio = ?, avatarUrl = ?, favoriteGenres = ? WHERE userId = ?",
                [profile.name ?? Self.erasedName, profile.bio, profile.avatarUrl, genres, profile.userId]
            )
        case .userErased(let erased):
            try db.run(
                "UPDATE user SET name = ?, email = NULL, avatarUrl = NULL, bio = NULL, favoriteGenres = NULL, erasedAt = ? WHERE userId = ?",
                [Self.erasedName, at, erased.userId]
            )
        case .termsAccepted(let terms):
            try db.run("UPDATE user SET termsVersion = ?, termsAcceptedAt = ? WHERE userId = ?", [terms.termsVersion, at, terms.userId])
        case .movieAdded, .movieTagged, .identityClaimed, .movieRated, .reviewLiked, .reviewUnliked, .watchlistAdded,
             .watchlistRemoved, .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled,
             .friendRemoved, .userBlocked, .userUnblocked, .movieRecommended, .sessionStarted, .sessionRefreshed, .sessionsEnded:
            break
        }
        if let actor = recorded.event.actorUserId { try markActive([(actor, at)], db) }
    }

    /// Between two events that write a profile, each user's last activity is the latest of their
    /// events: each user's row is updated once per run.
    func apply(_ events: ArraySlice<Recorded<NuvieEvent>>, _ db: Database) throws {
        try apply(events, db, gathering: { recorded -> Gathered<(userId: Int64, at: Int64)> in
            switch recorded.event {
            case .userRegistered, .profileUpdated, .termsAccepted, .userErased: .alone
            case .movieAdded, .movieTagged, .identityClaimed, .movieRated, .reviewLiked, .reviewUnliked, .watchlistAdded,
                 .watchlistRemoved, .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled,
                 .friendRemoved, .userBlocked, .userUnblocked, .movieRecommended, .sessionStarted, .sessionRefreshed,
                 .sessionsEnded: recorded.event.actorUserId.map { .item(($0, recorded.epochSeconds)) } ?? .nothing
            }
        }, flush: markActive)
    }

    private func markActive(_ activity: [(userId: Int64, at: Int64)], _ db: Database) throws {
        var latest: [Int64: Int64] = [:]
        for (userId, at) in activity { latest[userId] = max(latest[userId] ?? at, at) }
        for (userId, at) in latest {
            try db.run("UPDATE user SET lastActiveAt = max(lastActiveAt, ?) WHERE userId = ?", [at, userId])
        }
    }
}
