import Foundation
import GRDB

/// A film in trending: how many first ratings it got in the window.
public struct TrendingMovie: Sendable, Equatable {
    public var movie: MovieSummary
    public var windowRatingCount: Int
}

public struct TrendingPage: Sendable {
    public var page: Page<TrendingMovie>
    /// The window's first and last day (epoch seconds at UTC midnight, and the end of the last day); nil without ratings.
    public var from: Int64?
    public var to: Int64?
}

/// Search and discovery over the catalog, its FTS5 index and the rating counts.
public struct SearchQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    /// Films matching `query`, most relevant first: exact title, title prefix, every word in the title,
    /// every word in the tags, words as prefixes, then the query anywhere in the title; ties by how
    /// many ratings a film has. No query lists everything by popularity. `genres` keeps films with any of them.
    public func search(_ query: String, genres: [String], limit: Int, offset: Int) throws -> Page<MovieSummary> {
        let normalized = SearchText.normalize(query.trimmingCharacters(in: .whitespaces))
        let words = SearchText.words(query)
        let rank: String
        var arguments: StatementArguments = [:]
        if normalized.isEmpty {
            rank = "0"
        } else if words.isEmpty {
            rank = "CASE WHEN m.searchTitle = :q THEN 0 WHEN m.searchTitle LIKE :prefix ESCAPE '\\' THEN 1 WHEN m.searchTitle LIKE :anywhere ESCAPE '\\' THEN 5 END"
        } else {
            rank = """
                CASE WHEN m.searchTitle = :q THEN 0
                     WHEN m.searchTitle LIKE :prefix ESCAPE '\\' THEN 1
                     WHEN m.movieId IN (SELECT rowid FROM movieSearch WHERE movieSearch MATCH :titleWords) THEN 2
                     WHEN m.movieId IN (SELECT rowid FROM movieSearch WHERE movieSearch MATCH :tagWords) THEN 3
                     WHEN m.movieId IN (SELECT rowid FROM movieSearch WHERE movieSearch MATCH :prefixWords) THEN 4
                     WHEN m.searchTitle LIKE :anywhere ESCAPE '\\' THEN 5 END
                """
            arguments += [
                "titleWords": SearchText.ftsQuery(words, column: "title"), "tagWords": SearchText.ftsQuery(words, column: "tags"),
                "prefixWords": SearchText.ftsQuery(words, prefix: true),
            ]
        }
        if !normalized.isEmpty {
            let escaped = SearchText.likeEscaped(normalized)
            arguments += ["q": normalized, "prefix": escaped + "%", "anywhere": "%" + escaped + "%"]
        }
        var genreFilter = ""
        if !genres.isEmpty {
            let names = genres.indices.map { ":genre\($0)" }.joined(separator: ", ")
            genreFilter = "AND EXISTS (SELECT 1 FROM movieGenre g WHERE g.movieId = m.movieId AND g.genre IN (\(names)))"
            for (index, genre) in genres.enumerated() { arguments += ["genre\(index)": genre] }
        }
        // Only films that can rank at all, found through the indexes: the exact, prefix and anywhere
        // ranks need the query in the title (the trigram index finds those, for 3 characters or more),
        // the word ranks come from the FTS index. A shorter query ranks the whole catalog.
        var source = "movie m"
        if normalized.count >= 3 {
            var candidates = ["SELECT rowid AS id FROM movieTitleTrigram WHERE movieTitleTrigram MATCH :substring"]
            if !words.isEmpty {
                candidates += ["titleWords", "tagWords", "prefixWords"].map { "SELECT rowid AS id FROM movieSearch WHERE movieSearch MATCH :\($0)" }
            }
            arguments += ["substring": "\"" + normalized.replacingOccurrences(of: "\"", with: "\"\"") + "\""]
            source = "(\(candidates.joined(separator: " UNION "))) c JOIN movie m ON m.movieId = c.id"
        }
        // Rank every match once (ids only), then read the page's films.
        let ranked = try database.pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT m.movieId, \(rank) AS rank, COALESCE(s.ratingCount, 0) AS ratings
                FROM \(source) LEFT JOIN movieStats s ON s.movieId = m.movieId
                WHERE rank IS NOT NULL \(genreFilter)
                ORDER BY rank, ratings DESC, m.movieId
                """), arguments: arguments).map { $0["movieId"] as Int64 }
        }
        let page = Array(ranked.dropFirst(offset).prefix(limit))
        let films = try MovieQueries(database: database).summaries(ids: page)
        return Page(items: page.compactMap { films[$0] }, totalCount: ranked.count)
    }

    /// Films most often rated for the first time in the `days` days ending with the last day anyone
    /// rated anything, most first; ties by all-time rating count.
    public func trending(days: Int, limit: Int, offset: Int) throws -> TrendingPage {
        try database.pool.read { db in
            guard let lastDay = try Int64.fetchOne(db, sql: "SELECT MAX(day) FROM movieDailyRatings") else {
                return TrendingPage(page: Page(items: [], totalCount: 0), from: nil, to: nil)
            }
            let firstDay = lastDay - Int64(days) + 1
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT movieId) FROM movieDailyRatings WHERE day BETWEEN ? AND ?", arguments: [firstDay, lastDay]) ?? 0
            let rows = try Row.fetchAll(db, sql: """
                SELECT m.movieId, m.title, m.genres, m.year, s.ratingCount, s.ratingSum, w.windowCount
                FROM (SELECT movieId, SUM(ratingCount) AS windowCount FROM movieDailyRatings WHERE day BETWEEN ?1 AND ?2 GROUP BY movieId) w
                JOIN movie m ON m.movieId = w.movieId LEFT JOIN movieStats s ON s.movieId = w.movieId
                ORDER BY w.windowCount DESC, COALESCE(s.ratingCount, 0) DESC, m.movieId LIMIT ?3 OFFSET ?4
                """, arguments: [firstDay, lastDay, limit, offset])
            let items = rows.map { TrendingMovie(movie: MovieSummary(row: $0), windowRatingCount: $0["windowCount"]) }
            return TrendingPage(page: Page(items: items, totalCount: total), from: firstDay * 86_400, to: (lastDay + 1) * 86_400 - 1)
        }
    }
}

extension MovieSummary {
    init(row: Row) {
        self.init(
            movieId: row["movieId"], title: row["title"], genres: decodeGenres(row["genres"]), year: row["year"],
            ratingAverage: averageRating(row)
        )
    }
}
