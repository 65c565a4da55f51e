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
    /// Rows that are not films, ratings or tags (or are of films `movies.csv` lacks): not imported.
    public var rejected = RejectedRows()

    public init(directory: URL) throws {
        let links = try Self.rows(directory, "links.csv").reduce(into: [Int64: (imdb: String?, tmdb: Int64?)]()) { links, row in
            guard row.fields.count >= 3, let movieId = Int64(row.fields[0]), movieId > 0 else { return }
            links[movieId] = (row.fields[1].isEmpty ? nil : "tt" + row.fields[1], Int64(row.fields[2]))
        }
        let (movieRows, rejectedMovies) = try Self.movieRows(directory.appendingPathComponent("movies.csv"))
        rejected.append(rejectedMovies)
        movies = movieRows.map { row in
            let (title, year) = Self.splitYear(row.title)
            return Movie(movieId: row.movieId, title: title, year: year, genres: row.genres, tmdbId: links[row.movieId]?.tmdb, imdbId: links[row.movieId]?.imdb)
        }
        let catalog = Set(movies.map(\.movieId))
        ratings = []
        tags = []
        for row in try Self.rows(directory, "ratings.csv") {
            switch RatingRecord.parse(row.fields) {
            case .success(let rating) where catalog.contains(rating.movieId): ratings.append(rating)
            case .success(let rating): reject("ratings.csv", row, "film \(rating.movieId) is not in movies.csv")
            case .failure(let refusal): reject("ratings.csv", row, refusal.reason)
            }
        }
        for row in try Self.rows(directory, "tags.csv", required: false) {
            let fields = row.fields
            guard fields.count >= 4, let user = Int64(fields[0]), user > 0, let movie = Int64(fields[1]), movie > 0,
                  let at = Int64(fields[3]), at >= 0, !fields[2].trimmingCharacters(in: .whitespaces).isEmpty
            else {
                reject("tags.csv", row, "not a tag: positive userId and movieId, a tag, a timestamp of 0 or more")
                continue
            }
            guard catalog.contains(movie) else {
                reject("tags.csv", row, "film \(movie) is not in movies.csv")
                continue
            }
            tags.append(Tag(userId: user, movieId: movie, tag: fields[2], timestamp: at))
        }
    }

    private mutating func reject(_ file: String, _ row: (line: Int, fields: [String]), _ reason: String) {
        rejected.reject(file: file, line: row.line, reason: reason, text: row.fields.joined(separator: ","))
    }

    /// `movies.csv` (`movieId,title,genres`) row by row, the title as the file has it ("Toy Story
    /// (1995)"); a row without a positive id is rejected.
    public static func movieRows(_ url: URL) throws -> (movies: [(movieId: Int64, title: String, genres: [String])], rejected: RejectedRows) {
        var rejected = RejectedRows()
        let movies = try CSV.numberedRows(String(contentsOf: url, encoding: .utf8)).dropFirst().compactMap { row -> (Int64, String, [String])? in
            guard row.fields.count >= 3, let movieId = Int64(row.fields[0]), movieId > 0 else {
                rejected.reject(file: url.lastPathComponent, line: row.line, reason: "not movieId,title,genres", text: row.fields.joined(separator: ","))
                return nil
            }
            return (movieId, row.fields[1], genres(row.fields[2]))
        }
        return (movies, rejected)
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

    private static func rows(_ directory: URL, _ file: String, required: Bool = true) throws -> ArraySlice<(line: Int, fields: [String])> {
        let url = directory.appendingPathComponent(file)
        guard required || FileManager.default.fileExists(atPath: url.path) else { return [] }
        return CSV.numberedRows(try String(contentsOf: url, encoding: .utf8)).dropFirst()
    }
}
