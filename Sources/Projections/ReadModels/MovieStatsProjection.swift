import Domain
import GRDB

/// Per-film rating count and sum (the average is sum / count), from the original rating values, and
/// how many first ratings each film got on each UTC day (for trending). Folds `movie-rated`, using its
/// `previousRating` to replace rather than add a re-rating.
struct MovieStatsProjection: Projection {
    let name = "movie-stats"
    let version = 2
    let tables = ["movieStats", "movieDailyRatings"]

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
    }

    func apply(_ recorded: Recorded<DomainEvent>, _ db: Database) throws {
        guard case .movieRated(let rated) = recorded.event else { return }
        let added = rated.previousRating == nil ? 1 : 0
        try db.run("""
                INSERT INTO movieStats (movieId, ratingCount, ratingSum) VALUES (?, ?, ?)
                ON CONFLICT (movieId) DO UPDATE SET ratingCount = ratingCount + excluded.ratingCount,
                                                    ratingSum = ratingSum + excluded.ratingSum
                """, [rated.movieId, added, rated.rating - (rated.previousRating ?? 0)]
        )
        guard rated.previousRating == nil else { return }
        try db.run("""
            INSERT INTO movieDailyRatings (day, movieId, ratingCount) VALUES (?, ?, 1)
            ON CONFLICT (day, movieId) DO UPDATE SET ratingCount = ratingCount + 1
            """, [recorded.epochSeconds / 86_400, rated.movieId])
    }
}
