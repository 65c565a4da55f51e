import NuvieDomain
import Foundation

/// The MovieLens `ml-latest` CSV files (movies, links, ratings, tags), parsed.
public struct MovieLensDataset {
    struct Rating { var userId: Int64; var movieId: Int64; var rating: Double; var timestamp: Int64 }
    struct Tag { var userId: Int64; var movieId: Int64; var tag: String; var timestamp: Int64 }

    var movies: [MovieAdded]
    var ratings: [Rating]
    var tags: [Tag]

    init(directory: URL) throws {
        let links = try Self.rows(directory, "links.csv").reduce(into: [Int64: (imdb: String?, tmdb: Int64?)]()) { links, row in
            guard row.count >= 3, let movieId = Int64(row[0]) else { return }
            links[movieId] = (row[1].isEmpty ? nil : "tt" + row[1], Int64(row[2]))
        }
        movies = try Self.rows(directory, "movies.csv").compactMap { row in
            guard row.count >= 3, let movieId = Int64(row[0]) else { return nil }
            let (title, year) = Self.splitYear(row[1])
            return MovieAdded(movieId: movieId, title: title, genres: Self.genres(row[2]), year: year, tmdbId: links[movieId]?.tmdb, imdbId: links[movieId]?.imdb)
        }
        ratings = try Self.rows(directory, "ratings.csv").compactMap { row in
            guard row.count >= 4, let user = Int64(row[0]), let movie = Int64(row[1]), let rating = Double(row[2]), let at = Int64(row[3]) else { return nil }
            return Rating(userId: user, movieId: movie, rating: rating, timestamp: at)
        }
        tags = try Self.rows(directory, "tags.csv", required: false).compactMap { row in
            guard row.count >= 4, let user = Int64(row[0]), let movie = Int64(row[1]), let at = Int64(row[3]) else { return nil }
            return Tag(userId: user, movieId: movie, tag: row[2], timestamp: at)
        }
    }

    /// `movies.csv`'s genres field: pipe-separated, "(no genres listed)" for none.
    public static func genres(_ field: String) -> [String] {
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
