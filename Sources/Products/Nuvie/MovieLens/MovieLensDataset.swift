import Foundation

/// The MovieLens `ml-latest` CSV files (movies, links, ratings, tags), parsed.
public struct MovieLensDataset: Sendable {
    /// A film of `movies.csv`, with its ids from `links.csv`.
    public struct Movie: Sendable, Equatable {
        public var movieId: Int64
        /// The title without its year.
        public var title: String
        /// MovieLens knows only the year of release.
        public var year: Int?
        public var genres: [String]
        public var tmdbId: Int64?
        public var imdbId: String?
    }

    public struct Tag: Sendable, Equatable {
        public var userId: Int64
        public var movieId: Int64
        public var tag: String
        public var timestamp: Int64
    }

    public var movies: [Movie]
    public var ratings: [RatingRecord]
    public var tags: [Tag]

    public init(directory: URL) throws {
        let links = try Self.rows(directory, "links.csv").reduce(into: [Int64: (imdb: String?, tmdb: Int64?)]()) { links, row in
            guard row.count >= 3, let movieId = Int64(row[0]) else { return }
            links[movieId] = (row[1].isEmpty ? nil : "tt" + row[1], Int64(row[2]))
        }
        movies = try Self.movieRows(directory.appendingPathComponent("movies.csv")).map { row in
            let (title, year) = Self.splitYear(row.title)
            return Movie(movieId: row.movieId, title: title, year: year, genres: row.genres, tmdbId: links[row.movieId]?.tmdb, imdbId: links[row.movieId]?.imdb)
        }
        ratings = try Self.rows(directory, "ratings.csv").compactMap(RatingRecord.init(fields:))
        tags = try Self.rows(directory, "tags.csv", required: false).compactMap { row in
            guard row.count >= 4, let user = Int64(row[0]), let movie = Int64(row[1]), let at = Int64(row[3]) else { return nil }
            return Tag(userId: user, movieId: movie, tag: row[2], timestamp: at)
        }
    }

    /// `movies.csv` (`movieId,title,genres`) row by row, the title as the file has it ("Toy Story (1995)").
    public static func movieRows(_ url: URL) throws -> [(movieId: Int64, title: String, genres: [String])] {
        try CSV.rows(String(contentsOf: url, encoding: .utf8)).dropFirst().compactMap { row in
            guard row.count >= 3, let movieId = Int64(row[0]) else { return nil }
            return (movieId, row[1], genres(row[2]))
        }
    }

    /// `movies.csv`'s genres field: pipe-separated, "(no genres listed)" for none.
    static func genres(_ field: String) -> [String] {
        field == "(no genres listed)" ? [] : field.split(separator: "|").map(String.init)
    }

    /// "Toy Story (1995)" → ("Toy Story", 1995). Titles without a year keep their text.
    static func splitYear(_ raw: String) -> (String, Int?) {
        let title = raw.trimmingCharacters(in: .whitespaces)
        guard title.hasSuffix(")"), let open = title.lastIndex(of: "(") else { return (title, nil) }
        let inside = title[title.index(after: open)..<title.index(before: title.endIndex)]
        guard let year = Int(inside.prefix(4)), inside.count >= 4, (1870...2100).contains(year) else { return (title, nil) }
        return (title[..<open].trimmingCharacters(in: .whitespaces), year)
    }

    private static func rows(_ directory: URL, _ file: String, required: Bool = true) throws -> ArraySlice<[String]> {
        let url = directory.appendingPathComponent(file)
        guard required || FileManager.default.fileExists(atPath: url.path) else { return [] }
        return CSV.rows(try String(contentsOf: url, encoding: .utf8)).dropFirst()
    }
}
