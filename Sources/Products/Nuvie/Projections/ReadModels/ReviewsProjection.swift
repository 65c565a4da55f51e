import ReadModels
import EventSourcing
import NuvieDomain
import GRDB

/// Reviews and their likes. A review's id is the log position of the first rating that was a review;
/// later reviews of the same film by the same user edit it, and any later rating updates its stars.
/// Folds `movie-rated`, `review-liked`, `review-unliked`; `user-erased` removes the user's reviews
/// and their likes of others' (whose counts drop).
struct ReviewsProjection: Projection {
    let name = "reviews"
    let version = 1
    let tables = ["review", "reviewLike"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "review") { t in
            t.primaryKey("reviewId", .integer)
            t.column("userId", .integer).notNull()
            t.column("movieId", .integer).notNull()
            t.column("rating", .double).notNull()
            t.column("comment", .text)
            t.column("createdAt", .integer).notNull()
            t.column("updatedAt", .integer).notNull()
            t.column("likeCount", .integer).notNull().defaults(to: 0)
            t.uniqueKey(["userId", "movieId"])
        }
        try db.create(index: "reviewByMovie", on: "review", columns: ["movieId", "updatedAt"])
        try db.create(table: "reviewLike") { t in
            t.primaryKey { t.column("reviewId", .integer); t.column("userId", .integer) }
        }
    }

    func apply(_ recorded: Recorded<NuvieEvent>, _ db: Database) throws {
        switch recorded.event {
        case .movieRated(let rated) where rated.isReview:
            let at = recorded.epochSeconds
            try db.run("""
                    INSERT INTO review (reviewId, userId, movieId, rating, comment, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (userId, movieId) DO UPDATE SET rating = excluded.rating, comment = excluded.comment,
                                                                updatedAt = excluded.updatedAt
                    """, [recorded.position, rated.userId, rated.movieId, rated.rating, rated.comment, at, at]
            )
        case .movieRated(let rated) where rated.previousRating != nil:
            // Only a re-rating can change a review's stars: a first rating has no review yet.
            try db.run("UPDATE review SET rating = ? WHERE userId = ? AND movieId = ?", [rated.rating, rated.userId, rated.movieId]
            )
        case .reviewLiked(let liked):
            try db.run("INSERT OR IGNORE INTO reviewLike (reviewId, userId) VALUES (?, ?)", [liked.reviewId, liked.userId])
            if db.changesCount > 0 {
                try db.run("UPDATE review SET likeCount = likeCount + 1 WHERE reviewId = ?", [liked.reviewId])
            }
        case .reviewUnliked(let unliked):
            try db.run("DELETE FROM reviewLike WHERE reviewId = ? AND userId = ?", [unliked.reviewId, unliked.userId])
            if db.changesCount > 0 {
                try db.run("UPDATE review SET likeCount = likeCount - 1 WHERE reviewId = ?", [unliked.reviewId])
            }
        case .userErased(let erased):
            try db.run(
                "UPDATE review SET likeCount = likeCount - 1 WHERE reviewId IN (SELECT reviewId FROM reviewLike WHERE userId = ?)", [erased.userId]
            )
            try db.run("DELETE FROM reviewLike WHERE userId = ?1 OR reviewId IN (SELECT reviewId FROM review WHERE userId = ?1)", [erased.userId])
            try db.run("DELETE FROM review WHERE userId = ?", [erased.userId])
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .movieRated, .watchlistAdded, .watchlistRemoved,
             .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled, .friendRemoved, .userBlocked,
             .userUnblocked, .movieRecommended, .profileUpdated, .termsAccepted, .sessionStarted, .sessionRefreshed,
             .sessionsEnded:
            break
        }
    }
}
