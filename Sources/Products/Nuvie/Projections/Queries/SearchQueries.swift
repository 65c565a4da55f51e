import ReadModels
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
    private let results = SearchResults()

    public init(database: ReadDatabase) {
        self.database = database
    }

    /// Films matching `query`, most relevant first: exact title, title prefix, every word in the title,
    /// every word in the tags, words as prefixes, then the query anywhere in the title; ties by how
    /// many ratings a film has. No query lists everything by popularity. `genres` keeps films with any of them.
    public func search(_ query: String, genres: [String], limit: Int, offset: Int) throws -> Page<MovieSummary> {
        try searchWithRevision(query, genres: genres, limit: limit, offset: offset).page
    }

    /// What every search's result depends on: the catalog's revision and the ratings'. A page found at
    /// one revision is the page at that revision for anyone who asks (search results carry nothing of
    /// the viewer), so it can be remembered until `revision()` moves.
    public func revision() throws -> String {
        try database.statement { db in try Self.revisions(db).description }
    }

    private static func revisions(_ db: Database) throws -> (catalog: Int64, stats: Int64, description: String) {
        let row = try Row.fetchOne(db.cachedStatement(
            sql: "SELECT (SELECT position FROM catalogRevision), (SELECT position FROM movieStatsRevision)"
        ))
        let catalog: Int64 = row?[0] ?? 0, stats: Int64 = row?[1] ?? 0
        return (catalog, stats, "\(catalog):\(stats)")
    }

    /// `search`'s page, and the `revision()` it was found at.
    public func searchWithRevision(_ query: String, genres: [String], limit: Int, offset: Int) throws -> (page: Page<MovieSummary>, revision: String) {
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
            genreFilter = "AND m.movieId IN (SELECT movieId FROM movieGenre WHERE genre IN (\(names)))"
            for (index, genre) in genres.enumerated() { arguments += ["genre\(index)": genre] }
        }
        // Only films that can rank at all, found through the indexes: the exact, prefix and anywhere
        // ranks need the query in the title (the trigram index finds those, for 3 characters or more),
        // the word ranks come from the FTS index; each film keeps its best rank. A shorter query
        // ranks the whole catalog with the CASE above.
        var source = "movie m"
        var rankOf = rank
        var findMatches: String?
        if normalized.count >= 3 {
            var ranked = ["""
                SELECT t.rowid AS id, CASE WHEN m.searchTitle = :q THEN 0 WHEN m.searchTitle LIKE :prefix ESCAPE '\\' THEN 1
                                           WHEN m.searchTitle LIKE :anywhere ESCAPE '\\' THEN 5 END AS rank
                FROM movieTitleTrigram t JOIN movie m ON m.movieId = t.rowid WHERE movieTitleTrigram MATCH :substring
                """]
            if !words.isEmpty {
                ranked += [("titleWords", 2), ("tagWords", 3), ("prefixWords", 4)].map { words, rank in
                    "SELECT rowid, \(rank) FROM movieSearch WHERE movieSearch MATCH :\(words)"
                }
            }
            arguments += ["substring": "\"" + normalized.replacingOccurrences(of: "\"", with: "\"\"") + "\""]
            findMatches = "SELECT id, MIN(rank) FROM (\(ranked.joined(separator: " UNION ALL "))) GROUP BY id HAVING MIN(rank) IS NOT NULL"
            source = "json_each(:ranks) c JOIN movie m ON m.movieId = CAST(c.key AS INTEGER)"
            rankOf = "c.value"
        }
        let order = """
            SELECT m.movieId, \(rankOf) AS rank
            FROM \(source) LEFT JOIN movieStats s ON s.movieId = m.movieId
            WHERE rank IS NOT NULL \(genreFilter)
            ORDER BY rank, COALESCE(s.ratingCount, 0) DESC, m.movieId
            """
        let matchKey = ([normalized] + words).joined(separator: "\u{1}")
        // The whole ordered result is remembered until the catalog or the ratings move; a page is a
        // slice of it, and its films are read in one statement, in the same transaction.
        return try database.read { db in
            let revisions = try Self.revisions(db)
            let catalogRevision = revisions.catalog
            let ids = try results.ordered(for: matchKey + "\u{2}" + genres.joined(separator: "\u{1}"), catalogRevision: catalogRevision, statsRevision: revisions.stats) {
                var arguments = arguments
                if let findMatches {
                    let ranks = try results.ranks(for: matchKey, catalogRevision: catalogRevision) {
                        try Row.fetchAll(db.cachedStatement(sql: findMatches), arguments: arguments).map { (movieId: $0[0], rank: $0[1]) }
                    }
                    arguments += ["ranks": "{" + ranks.map { "\"\($0.movieId)\":\($0.rank)" }.joined(separator: ",") + "}"]
                }
                return try Int64.fetchAll(db.cachedStatement(sql: order), arguments: arguments)
            }
            let page = ids.dropFirst(offset).prefix(limit)
            let items = page.isEmpty ? [] : try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(MovieSummary.columns)
                FROM json_each(?) c JOIN movie m ON m.movieId = c.value LEFT JOIN movieStats s ON s.movieId = m.movieId
                ORDER BY c.key
                """), arguments: ["[" + page.map(String.init).joined(separator: ",") + "]"]).map(MovieSummary.init(row:))
            return (Page(items: items, totalCount: ids.count), revisions.description)
        }
    }

    /// Films most often rated for the first time in the `days` days ending with the last day anyone
    /// rated anything, most first; ties by all-time rating count.
    public func trending(days: Int, limit: Int, offset: Int) throws -> TrendingPage {
        try database.read { db in
            guard let lastDay = try Int64.fetchOne(db, sql: "SELECT MAX(day) FROM movieDailyRatings") else {
                return TrendingPage(page: Page(items: [], totalCount: 0), from: nil, to: nil)
            }
            let firstDay = lastDay - Int64(days) + 1
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT movieId) FROM movieDailyRatings WHERE day BETWEEN ? AND ?", arguments: [firstDay, lastDay]) ?? 0
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(MovieSummary.columns), w.windowCount
                FROM (SELECT movieId, SUM(ratingCount) AS windowCount FROM movieDailyRatings WHERE day BETWEEN ?1 AND ?2 GROUP BY movieId) w
                JOIN movie m ON m.movieId = w.movieId LEFT JOIN movieStats s ON s.movieId = w.movieId
                ORDER BY w.windowCount DESC, COALESCE(s.ratingCount, 0) DESC, m.movieId LIMIT ?3 OFFSET ?4
                """, arguments: [firstDay, lastDay, limit, offset])
            let items = rows.map { TrendingMovie(movie: MovieSummary(row: $0), windowRatingCount: $0[6]) }
            return TrendingPage(page: Page(items: items, totalCount: total), from: firstDay * 86_400, to: (lastDay + 1) * 86_400 - 1)
        }
    }
}

extension MovieSummary {
    /// What a query selects for `init(row:)`, in this order (movie `m`, movie stats `s`).
    static let columns = "m.movieId, m.title, m.genres, m.year, s.ratingCount, s.ratingSum"

    /// From a row that starts with `columns`.
    init(row: Row) {
        let count: Int = row[4] ?? 0
        let sum: Double = row[5] ?? 0
        self.init(
            movieId: row[0], title: row[1], genres: decodeGenres(row[2]), year: row[3],
            ratingAverage: count > 0 ? sum / Double(count) : nil
        )
    }
}
