import Domain
import Foundation
import GRDB

/// The film catalog: `movie` (title, year, genres, TMDB/IMDb ids), `movieGenre` for genre filters,
/// `movieTag` for tag search. Folds `movie-added` and `movie-tagged`.
struct CatalogProjection: Projection {
    let name = "catalog"
    let version = 1
    let tables = ["movie", "movieGenre", "movieTag"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "movie") { t in
            t.primaryKey("movieId", .integer)
            t.column("title", .text).notNull()
            t.column("year", .integer)
            t.column("genres", .text).notNull()
            t.column("tmdbId", .integer)
            t.column("imdbId", .text)
        }
        try db.create(table: "movieGenre") { t in
            t.primaryKey { t.column("genre", .text).collate(.nocase); t.column("movieId", .integer) }
        }
        try db.create(table: "movieTag") { t in
            t.primaryKey { t.column("movieId", .integer); t.column("userId", .integer); t.column("tag", .text) }
        }
    }

    func apply(_ recorded: Recorded<DomainEvent>, _ db: Database) throws {
        switch recorded.event {
        case .movieAdded(let movie):
            let genres = String(decoding: try JSONEncoder().encode(movie.genres), as: UTF8.self)
            try db.run("INSERT OR REPLACE INTO movie (movieId, title, year, genres, tmdbId, imdbId) VALUES (?, ?, ?, ?, ?, ?)", [movie.movieId, movie.title, movie.year, genres, movie.tmdbId, movie.imdbId]
            )
            try db.run("DELETE FROM movieGenre WHERE movieId = ?", [movie.movieId])
            for genre in movie.genres {
                try db.run("INSERT OR IGNORE INTO movieGenre (genre, movieId) VALUES (?, ?)", [genre, movie.movieId])
            }
        case .movieTagged(let tagged):
            try db.run("INSERT OR IGNORE INTO movieTag (movieId, userId, tag) VALUES (?, ?, ?)", [tagged.movieId, tagged.userId, tagged.tag]
            )
        default:
            break
        }
    }
}
