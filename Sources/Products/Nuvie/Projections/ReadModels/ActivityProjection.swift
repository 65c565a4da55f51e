import ReadModels
import EventSourcing
import NuvieDomain
import GRDB
import OrderedCollections

/// What each user did, one row per event the activity feed shows; the row id is the event's log
/// position, so it is the same after every rebuild. Folds `movie-rated` (`rating` or `review`),
/// `watch-progressed` (`started`, and `watched` when completed) and `watchlist-added` (`watchlist`).
/// v2 adds `activityCount`, each user's rows per type, so a feed's total is a sum over friends
/// instead of a count of every friend's rows on each request.
struct ActivityProjection: Projection {
    let name = "activity"
    let version = 2
    let tables = ["activity", "activityCount"]
    /// An erasure's delete scans `activity` without it while a bulk fold defers it.
    let indexesForReads = ["activityByUser"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "activity") { t in
            t.primaryKey("activityId", .integer)
            t.column("userId", .integer).notNull()
            t.column("movieId", .integer).notNull()
            t.column("type", .text).notNull()
            t.column("rating", .double)
            t.column("comment", .text)
            t.column("occurredAt", .integer).notNull()
        }
        try db.create(index: "activityByUser", on: "activity", columns: ["userId", "activityId"])
        try db.create(table: "activityCount") { t in
            t.column("userId", .integer).notNull()
            t.column("type", .text).notNull()
            t.column("count", .integer).notNull()
            t.primaryKey(["userId", "type"])
        }
    }

    func apply(_ recorded: Recorded<NuvieEvent>, _ db: Database) throws {
        try apply([recorded][...], db)
    }

    /// Inserts each event's row in order, and adds the counts up over the batch to write each
    /// (user, type) count once, new ones in the order one event at a time would insert them.
    func apply(_ events: ArraySlice<Recorded<NuvieEvent>>, _ db: Database) throws {
        var counts = OrderedDictionary<UserActivityType, Int>()
        for recorded in events {
            if case .userErased(let erased) = recorded.event {
                counts.removeAll { $0.key.userId == erased.userId }
                try db.run("DELETE FROM activity WHERE userId = ?", [erased.userId])
                try db.run("DELETE FROM activityCount WHERE userId = ?", [erased.userId])
                continue
            }
            guard let row = Self.row(for: recorded.event) else { continue }
            try FoldFailure.at(recorded.position) {
                try db.run(
                    "INSERT INTO activity (activityId, userId, movieId, type, rating, comment, occurredAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [recorded.position, row.userId, row.movieId, row.type, row.rating, row.comment, recorded.epochSeconds]
                )
            }
            counts[UserActivityType(userId: row.userId, type: row.type), default: 0] += 1
        }
        try FoldFailure.at(events.last?.position ?? 0) {
            for (key, count) in counts {
                try db.run(
                    "INSERT INTO activityCount (userId, type, count) VALUES (?, ?, ?) ON CONFLICT (userId, type) DO UPDATE SET count = count + excluded.count",
                    [key.userId, key.type, count]
                )
            }
        }
    }

    private struct UserActivityType: Hashable {
        var userId: Int64
        var type: String
    }

    /// The feed row an event makes, if it makes one.
    static func row(for event: NuvieEvent) -> (userId: Int64, movieId: Int64, type: String, rating: Double?, comment: String?)? {
        switch event {
        case .movieRated(let e): (e.userId, e.movieId, e.isReview ? "review" : "rating", e.rating, e.comment)
        case .watchProgressed(let e) where e.eventType == .started: (e.userId, e.movieId, "started", nil, nil)
        case .watchProgressed(let e) where e.eventType == .completed: (e.userId, e.movieId, "watched", nil, nil)
        case .watchlistAdded(let e): (e.userId, e.movieId, "watchlist", nil, nil)
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .reviewLiked, .reviewUnliked, .watchlistRemoved,
             .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled, .friendRemoved, .userBlocked,
             .userUnblocked, .movieRecommended, .profileUpdated, .termsAccepted, .userErased, .sessionStarted, .sessionRefreshed,
             .sessionsEnded: nil
        }
    }
}
