import Domain
import GRDB

/// Per-film rating count and sum (the average is sum / count), from the original rating values.
/// Folds `movie-rated`, using its `previousRating` to replace rather than add a re-rating.
struct MovieStatsProjection: Projection {
    let name = "movie-stats"
    let version = 1
    let tables = ["movieStats"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "movieStats") { t in
            t.primaryKey("movieId", .integer)
            t.column("ratingCount", .integer).notNull()
            t.column("ratingSum", .double).notNull()
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
    }
}
