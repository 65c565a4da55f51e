import ReadModels
import Foundation
import GRDB
import NIOConcurrencyHelpers

public struct MovieDetail: Sendable, Equatable {
    public var movieId: Int64
    public var title: String
    public var genres: [String]
    public var year: Int?
    public var tmdbId: Int64?
    public var ratingAverage: Double?
    public var ratingCount: Int
    /// The viewer's own rating, as recorded (MovieLens ratings keep their half stars).
    public var viewerRating: Double?
    public var inViewerWatchlist: Bool
    /// The viewer's latest watch event: started, paused or completed.
    public var viewerWatchStatus: String?
}

/// A film as lists show it (watchlist, search).
public struct MovieSummary: Sendable, Equatable {
    public var movieId: Int64
    public var title: String
    public var genres: [String]
    public var year: Int?
    public var ratingAverage: Double?
}

/// Reads films from the catalog, stats and ratings read models.
public struct MovieQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    public func movie(id movieId: Int64, viewer: Int64?) throws -> MovieDetail? {
        // One statement: no transaction needed for it to see one state of the database.
        try database.statement { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT m.movieId, m.title, m.genres, m.year, m.tmdbId, s.ratingCount, s.ratingSum, r.rating AS viewerRating,
                       w.movieId IS NOT NULL AS inWatchlist, ws.status AS watchStatus
                FROM movie m
                LEFT JOIN movieStats s ON s.movieId = m.movieId
                LEFT JOIN userRating r ON r.movieId = m.movieId AND r.userId = ?1
                LEFT JOIN watchlistEntry w ON w.movieId = m.movieId AND w.userId = ?1
                LEFT JOIN watchStatus ws ON ws.movieId = m.movieId AND ws.userId = ?1
                WHERE m.movieId = ?2
                """), arguments: [viewer, movieId])
            else { return nil }
            // By column index: by-name lookups fold case and cost more than the read (profiled).
            let count: Int = row[5] ?? 0
            let sum: Double = row[6] ?? 0
            return MovieDetail(
                movieId: row[0], title: row[1], genres: decodeGenres(row[2]), year: row[3],
                tmdbId: row[4], ratingAverage: count > 0 ? sum / Double(count) : nil, ratingCount: count,
                viewerRating: row[7], inViewerWatchlist: row[8], viewerWatchStatus: row[9]
            )
        }
    }

    /// The films with these ids, as lists show them.
    public func summaries(ids: [Int64]) throws -> [Int64: MovieSummary] {
        guard !ids.isEmpty else { return [:] }
        return try database.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(MovieSummary.columns) FROM movie m
                LEFT JOIN movieStats s ON s.movieId = m.movieId
                WHERE m.movieId IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                """, arguments: StatementArguments(ids))
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0], MovieSummary(row: $0)) })
        }
    }

    /// Every genre in the catalog with how many films carry it, by name.
    public func genres() throws -> [(name: String, movieCount: Int)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT genre, COUNT(*) AS n FROM movieGenre GROUP BY genre COLLATE NOCASE ORDER BY genre COLLATE NOCASE")
                .map { ($0["genre"], $0["n"]) }
        }
    }

    /// The user's watchlist, most recently added first.
    public func watchlist(userId: Int64, limit: Int, offset: Int) throws -> Page<MovieSummary> {
        try database.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM watchlistEntry WHERE userId = ?", arguments: [userId]) ?? 0
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(MovieSummary.columns)
                FROM watchlistEntry w JOIN movie m ON m.movieId = w.movieId
                LEFT JOIN movieStats s ON s.movieId = m.movieId
                WHERE w.userId = ?
                ORDER BY w.position DESC
                LIMIT ? OFFSET ?
                """, arguments: [userId, limit, offset])
            return Page(items: rows.map(MovieSummary.init(row:)), totalCount: total)
        }
    }
}

func decodeGenres(_ json: String?) -> [String] {
    decodeGenreList(json) ?? []
}

/// A JSON list of genres as the projections store it; nil for NULL. The catalog has about a
/// thousand distinct lists, so decoded ones are remembered.
func decodeGenreList(_ json: String?) -> [String]? {
    guard let json else { return nil }
    if let known = genreLists.withLockedValue({ $0.get(json, key: "") }) { return known }
    let decoded = (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    genreLists.withLockedValue { $0.put(json, key: "", decoded) }
    return decoded
}

private let genreLists = NIOLockedValueBox(Memo<String, [String]>(capacity: 8_192))
