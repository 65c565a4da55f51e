import ReadModels
import EventSourcing
import NuvieDomain
import GRDB
import OrderedCollections

/// Per-film rating count and sum (the average is sum / count), from the original rating values, and
/// how many first ratings each film got on each UTC day (for trending). Folds `movie-rated`, using its
/// `previousRating` to replace rather than add a re-rating. v3 adds `movieStatsRevision`: the position
/// of the last rating folded, so what is ordered by ratings can be remembered until it moves.
struct MovieStatsProjection: Projection {
    let name = "movie-stats"
    let version = 3
    let tables = ["movieStats", "movieDailyRatings", "movieStatsRevision"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "movieStats") { t in
            t.primaryKey("movieId", .integer)
            t.column("ratingCount", .integer).notNull()
            t.column("ratingSum", .double).notNull()
        }
        try db.create(table: "movieDailyRatings") { t in
            t.primaryKey { t.column("day", .integer); t.column("movieId", .integer) }
            t.column("ratingCount", .integer).notNull()
        }
        try db.create(table: "movieStatsRevision") { t in
            t.primaryKey("id", .integer)
            t.column("position", .integer).notNull()
        }
    }

    func apply(_ recorded: Recorded<NuvieEvent>, _ db: Database) throws {
        try apply([recorded][...], db)
    }

    /// Adds up each film's and each day's ratings over the batch and writes each row once. Ratings
    /// are multiples of 0.5, so their sums are exact in any order.
    func apply(_ events: ArraySlice<Recorded<NuvieEvent>>, _ db: Database) throws {
        // In first-appearance order: new rows get the rowids one-event-at-a-time folding gives them.
        var films = OrderedDictionary<Int64, (count: Int, sum: Double)>()
        var days = OrderedDictionary<DayFilm, Int>()
        var lastRating: UInt64?
        for recorded in events {
            let rated: MovieRated
            switch recorded.event {
            case .movieRated(let event): rated = event
            // An erased user's ratings stay in the films' counts and sums: no one's, once their stream is gone.
            case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .reviewLiked, .reviewUnliked, .watchlistAdded,
                 .watchlistRemoved, .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled, .friendRemoved,
                 .userBlocked, .userUnblocked, .movieRecommended, .profileUpdated, .termsAccepted, .userErased, .sessionStarted,
                 .sessionRefreshed, .sessionsEnded:
                continue
            }
            lastRating = recorded.position
            let isFirst = rated.previousRating == nil
            films[rated.movieId, default: (0, 0)].count += isFirst ? 1 : 0
            films[rated.movieId, default: (0, 0)].sum += rated.rating - (rated.previousRating ?? 0)
            if isFirst { days[DayFilm(day: recorded.epochSeconds / 86_400, movieId: rated.movieId), default: 0] += 1 }
        }
        guard let lastRating else { return }
        try FoldFailure.at(lastRating) {
            for (movieId, delta) in films {
                try db.run("""
                    INSERT INTO movieStats (movieId, ratingCount, ratingSum) VALUES (?, ?, ?)
                    ON CONFLICT (movieId) DO UPDATE SET ratingCount = ratingCount + excluded.ratingCount,
                                                        ratingSum = ratingSum + excluded.ratingSum
                    """, [movieId, delta.count, delta.sum])
            }
            for (key, count) in days {
                try db.run("""
                    INSERT INTO movieDailyRatings (day, movieId, ratingCount) VALUES (?, ?, ?)
                    ON CONFLICT (day, movieId) DO UPDATE SET ratingCount = ratingCount + excluded.ratingCount
                    """, [key.day, key.movieId, count])
            }
            try db.run("INSERT INTO movieStatsRevision (id, position) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET position = excluded.position", [lastRating])
        }
    }
}

private struct DayFilm: Hashable {
    var day: Int64
    var movieId: Int64
}
