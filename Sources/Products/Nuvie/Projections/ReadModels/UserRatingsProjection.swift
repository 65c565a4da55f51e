import ReadModels
import EventSourcing
import NuvieDomain
import GRDB

/// Each user's current rating of each film, with its comment and when it was given.
/// Folds `movie-rated` (a re-rating replaces the row) and `user-erased` (the user's rows go; the
/// films' averages keep their ratings, anonymous). Version 2 adds the index that finds a user's
/// latest rating with one seek (the recommendation feed's cache stamp).
struct UserRatingsProjection: Projection {
    let name = "user-ratings"
    let version = 2
    let tables = ["userRating"]
    let indexesForReads = ["userRatingByMovie", "userRatingByUserPosition"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "userRating") { t in
            t.primaryKey { t.column("userId", .integer); t.column("movieId", .integer) }
            t.column("rating", .double).notNull()
            t.column("comment", .text)
            t.column("ratedAt", .integer).notNull()
            t.column("position", .integer).notNull()
        }
        try db.create(index: "userRatingByMovie", on: "userRating", columns: ["movieId"])
        try db.create(index: "userRatingByUserPosition", on: "userRating", columns: ["userId", "position"])
    }

    func apply(_ recorded: Recorded<NuvieEvent>, _ db: Database) throws {
        switch recorded.event {
        case .userErased(let erased):
            try db.run("DELETE FROM userRating WHERE userId = ?", [erased.userId])
        case .movieRated(let rated):
            try db.run(
                "INSERT OR REPLACE INTO userRating (userId, movieId, rating, comment, ratedAt, position) VALUES (?, ?, ?, ?, ?, ?)",
                [rated.userId, rated.movieId, rated.rating, rated.comment, recorded.epochSeconds, recorded.position]
            )
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .reviewLiked, .reviewUnliked, .watchlistAdded,
             .watchlistRemoved, .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled, .friendRemoved,
             .userBlocked, .userUnblocked, .movieRecommended, .profileUpdated, .termsAccepted, .sessionStarted, .sessionRefreshed,
             .sessionsEnded:
            break
        }
    }
}
