import Domain
import GRDB

/// Each user's taste by genre: how many films of the genre they rated, how many they liked (4 stars
/// or more) and the sum of their ratings. Keeps its own film → genres map so that it folds
/// `movie-added` and `movie-rated` without reading another projection's tables.
struct TasteProjection: Projection {
    let name = "taste"
    let version = 1
    let tables = ["tasteMovieGenre", "userGenre"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "tasteMovieGenre") { t in
            t.primaryKey { t.column("movieId", .integer); t.column("genre", .text) }
        }
        try db.create(table: "userGenre") { t in
            t.primaryKey { t.column("userId", .integer); t.column("genre", .text) }
            t.column("ratedCount", .integer).notNull()
            t.column("likedCount", .integer).notNull()
            t.column("ratingSum", .double).notNull()
        }
        try db.create(index: "userGenreByGenre", on: "userGenre", columns: ["genre", "likedCount"])
    }

    func apply(_ recorded: Recorded<DomainEvent>, _ db: Database) throws {
        switch recorded.event {
        case .movieAdded(let movie):
            try db.run("DELETE FROM tasteMovieGenre WHERE movieId = ?", [movie.movieId])
            for genre in movie.genres {
                try db.run("INSERT OR IGNORE INTO tasteMovieGenre (movieId, genre) VALUES (?, ?)", [movie.movieId, genre])
            }
        case .movieRated(let rated):
            let liked = { (rating: Double?) in (rating ?? 0) >= MovieRated.likedThreshold ? 1 : 0 }
            try db.run("""
                INSERT INTO userGenre (userId, genre, ratedCount, likedCount, ratingSum)
                SELECT ?, genre, ?, ?, ? FROM tasteMovieGenre WHERE movieId = ?
                ON CONFLICT (userId, genre) DO UPDATE SET ratedCount = ratedCount + excluded.ratedCount,
                    likedCount = likedCount + excluded.likedCount, ratingSum = ratingSum + excluded.ratingSum
                """, [
                    rated.userId, rated.previousRating == nil ? 1 : 0, liked(rated.rating) - liked(rated.previousRating),
                    rated.rating - (rated.previousRating ?? 0), rated.movieId,
                ])
        default:
            break
        }
    }
}
