import ReadModels
import EventSourcing
import NuvieDomain
import Foundation
import GRDB

/// The film catalog: `movie` (title, its search form, year, genres, TMDB/IMDb ids), `movieGenre` for
/// genre filters, `movieTag` for tags, `movieSearch`, an FTS5 index of titles and tags, and (v3)
/// `movieTitleTrigram`, an FTS5 trigram index of the search titles, so that a substring search finds
/// its films without scanning the catalog. v4 adds `catalogRevision`: the position of the last event
/// that changed what a search finds, so searches can remember their matches until it moves. v5: tags
/// are their author's personal data; `user-erased` deletes the user's tags and merges the search
/// index (FTS5 keeps a deleted row's terms in old segments until a merge). v6: every tag and erasure
/// moves the revision, so a fold after an erasure gives the live fold's. Folds `movie-added`,
/// `movie-tagged` and `user-erased`.
struct CatalogProjection: Projection {
    let name = "catalog"
    let version = 6
    let tables = ["movie", "movieGenre", "movieTag", "movieSearch", "movieTitleTrigram", "catalogRevision"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "movie") { t in
            t.primaryKey("movieId", .integer)
            t.column("title", .text).notNull()
            t.column("searchTitle", .text).notNull()
            t.column("year", .integer)
            t.column("genres", .text).notNull()
            t.column("tmdbId", .integer)
            t.column("imdbId", .text)
        }
        try db.create(table: "movieGenre") { t in
            t.primaryKey { t.column("genre", .text).collate(.nocase); t.column("movieId", .integer) }
        }
        try db.create(index: "movieGenreByMovie", on: "movieGenre", columns: ["movieId"])
        try db.create(table: "movieTag") { t in
            t.primaryKey { t.column("movieId", .integer); t.column("userId", .integer); t.column("tag", .text) }
        }
        // rowid = movieId. GRDB's FTS5 API may be compiled out against the system SQLite; the SQL is plain.
        try db.execute(sql: "CREATE VIRTUAL TABLE movieSearch USING fts5(title, tags, tokenize = 'unicode61 remove_diacritics 2')")
        try db.execute(sql: "CREATE VIRTUAL TABLE movieTitleTrigram USING fts5(searchTitle, tokenize = 'trigram')")
        try db.create(table: "catalogRevision") { t in
            t.primaryKey("id", .integer).check { $0 == 1 }
            t.column("position", .integer).notNull()
        }
    }

    func apply(_ recorded: Recorded<NuvieEvent>, _ db: Database) throws {
        try apply([recorded][...], db)
    }

    /// Writes each event's rows in order, then rebuilds the search row of each film the batch touched
    /// once (it depends only on the film's final title and tags): a film's tags arrive one event each.
    /// The revision becomes the position of the batch's last event that changed a film.
    func apply(_ events: ArraySlice<Recorded<NuvieEvent>>, _ db: Database) throws {
        var touched = Set<Int64>()
        var lastChange: UInt64?
        var tagsErased = false
        for recorded in events {
            try FoldFailure.at(recorded.position) {
                if let movieIds = try write(recorded.event, db) {
                    touched.formUnion(movieIds)
                    lastChange = recorded.position
                    if case .userErased = recorded.event, !movieIds.isEmpty { tagsErased = true }
                }
            }
        }
        guard let lastChange else { return }
        try FoldFailure.at(lastChange) {
            for movieId in touched.sorted() { try index(movieId, db) }
            if tagsErased {
                try db.run("INSERT INTO movieSearch (movieSearch) VALUES ('optimize')")
            }
            try db.run("INSERT INTO catalogRevision (id, position) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET position = excluded.position", [lastChange])
        }
    }

    /// The films whose search rows the event made stale; nil when it is no change to the catalog. A tag
    /// and an erasure are changes whatever they touched: a tag that no longer opens (its user erased)
    /// changes the revision as it did when folded live, so a replay or `verify` gives the same one.
    private func write(_ event: NuvieEvent, _ db: Database) throws -> [Int64]? {
        switch event {
        case .movieAdded(let movie):
            let genres = String(decoding: try JSONEncoder().encode(movie.genres), as: UTF8.self)
            let searchTitle = SearchText.normalize(movie.title)
            try db.run("INSERT OR REPLACE INTO movie (movieId, title, searchTitle, year, genres, tmdbId, imdbId) VALUES (?, ?, ?, ?, ?, ?, ?)", [movie.movieId, movie.title, searchTitle, movie.year, genres, movie.tmdbId, movie.imdbId]
            )
            try db.run("DELETE FROM movieTitleTrigram WHERE rowid = ?", [movie.movieId])
            try db.run("INSERT INTO movieTitleTrigram (rowid, searchTitle) VALUES (?, ?)", [movie.movieId, searchTitle])
            try db.run("DELETE FROM movieGenre WHERE movieId = ?", [movie.movieId])
            for genre in movie.genres {
                try db.run("INSERT OR IGNORE INTO movieGenre (genre, movieId) VALUES (?, ?)", [genre, movie.movieId])
            }
            return [movie.movieId]
        case .movieTagged(let tagged):
            guard let tag = tagged.tag else { return [] }
            try db.run("INSERT OR IGNORE INTO movieTag (movieId, userId, tag) VALUES (?, ?, ?)", [tagged.movieId, tagged.userId, tag])
            return db.changesCount > 0 ? [tagged.movieId] : []
        case .userErased(let erased):
            let movieIds = try Int64.fetchAll(db, sql: "SELECT DISTINCT movieId FROM movieTag WHERE userId = ?", arguments: [erased.userId])
            try db.run("DELETE FROM movieTag WHERE userId = ?", [erased.userId])
            return movieIds
        case .identityClaimed, .userRegistered, .movieRated, .reviewLiked, .reviewUnliked, .watchlistAdded, .watchlistRemoved,
             .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled, .friendRemoved, .userBlocked,
             .userUnblocked, .movieRecommended, .profileUpdated, .termsAccepted, .sessionStarted, .sessionRefreshed,
             .sessionsEnded:
            return nil
        }
    }

    /// Replaces the film's search row: its normalised title and its distinct tags.
    private func index(_ movieId: Int64, _ db: Database) throws {
        try db.run("DELETE FROM movieSearch WHERE rowid = ?", [movieId])
        try db.run("""
            INSERT INTO movieSearch (rowid, title, tags)
            SELECT movieId, searchTitle, (SELECT COALESCE(group_concat(tag, ' '), '') FROM (SELECT DISTINCT tag FROM movieTag WHERE movieId = ?1 ORDER BY tag))
            FROM movie WHERE movieId = ?1
            """, [movieId])
    }
}
