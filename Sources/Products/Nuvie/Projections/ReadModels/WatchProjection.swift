import ReadModels
import EventSourcing
import NuvieDomain
import GRDB

/// Each user's watchlist and the latest watch event per film, each with the log position of the event
/// that put it there (the recommender cites them: projections/recommendations.md), and whether the
/// film was ever watched to the end (`watched_count` keeps a film finished and then started again).
/// Folds `watchlist-added`, `watchlist-removed`, `watch-progressed`, and `user-erased` (the user's rows go).
struct WatchProjection: Projection {
    let name = "watch"
    let version = 3
    let tables = ["watchlistEntry", "watchStatus"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "watchlistEntry") { t in
            t.primaryKey { t.column("userId", .integer); t.column("movieId", .integer) }
            t.column("addedAt", .integer).notNull()
            t.column("position", .integer).notNull()
        }
        try db.create(table: "watchStatus") { t in
            t.primaryKey { t.column("userId", .integer); t.column("movieId", .integer) }
            t.column("status", .text).notNull()
            t.column("progressPercent", .integer).notNull()
            t.column("updatedAt", .integer).notNull()
            t.column("position", .integer).notNull()
            t.column("everCompleted", .boolean).notNull()
        }
    }

    func apply(_ recorded: Recorded<NuvieEvent>, _ db: Database) throws {
        switch recorded.event {
        case .watchlistAdded(let added):
            try db.run(
                "INSERT OR REPLACE INTO watchlistEntry (userId, movieId, addedAt, position) VALUES (?, ?, ?, ?)",
                [added.userId, added.movieId, recorded.epochSeconds, recorded.position]
            )
        case .watchlistRemoved(let removed):
            try db.run("DELETE FROM watchlistEntry WHERE userId = ? AND movieId = ?", [removed.userId, removed.movieId])
        case .watchProgressed(let watched):
            try db.run(
                """
                INSERT INTO watchStatus (userId, movieId, status, progressPercent, updatedAt, position, everCompleted) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (userId, movieId) DO UPDATE SET status = excluded.status, progressPercent = excluded.progressPercent,
                    updatedAt = excluded.updatedAt, position = excluded.position, everCompleted = everCompleted OR excluded.everCompleted
                """,
                [watched.userId, watched.movieId, watched.eventType.rawValue, watched.progressPercent, recorded.epochSeconds, recorded.position,
                 watched.eventType == .completed]
            )
        case .userErased(let erased):
            try db.run("DELETE FROM watchlistEntry WHERE userId = ?", [erased.userId])
            try db.run("DELETE FROM watchStatus WHERE userId = ?", [erased.userId])
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .movieRated, .reviewLiked, .reviewUnliked,
             .friendRequested, .friendRequestAnswered, .friendRequestCancelled, .friendRemoved, .userBlocked, .userUnblocked,
             .movieRecommended, .profileUpdated, .termsAccepted, .sessionStarted, .sessionRefreshed, .sessionsEnded:
            break
        }
    }
}
