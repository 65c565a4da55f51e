import Foundation
import GRDB

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
}

/// Reads films from the catalog, stats and ratings read models.
public struct MovieQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    public func movie(id movieId: Int64, viewer: Int64?) throws -> MovieDetail? {
        try database.pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT m.movieId, m.title, m.genres, m.year, m.tmdbId, s.ratingCount, s.ratingSum, r.rating AS viewerRating
                FROM movie m
                LEFT JOIN movieStats s ON s.movieId = m.movieId
                LEFT JOIN userRating r ON r.movieId = m.movieId AND r.userId = ?
                WHERE m.movieId = ?
                """, arguments: [viewer, movieId])
            else { return nil }
            let count: Int = row["ratingCount"] ?? 0
            let sum: Double = row["ratingSum"] ?? 0
            return MovieDetail(
                movieId: row["movieId"], title: row["title"], genres: decodeGenres(row["genres"]), year: row["year"],
                tmdbId: row["tmdbId"], ratingAverage: count > 0 ? sum / Double(count) : nil, ratingCount: count,
                viewerRating: row["viewerRating"]
            )
        }
    }
}

func decodeGenres(_ json: String?) -> [String] {
    guard let json else { return [] }
    return (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
}
