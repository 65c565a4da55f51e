import Foundation

public enum RatingsFileError: Error, CustomStringConvertible {
    case malformed(line: Int, text: String)
    case empty

    public var description: String {
        switch self {
        case .malformed(let line, let text): "line \(line) is not `user,item,rating,timestamp` nor `user<TAB>item<TAB>rating<TAB>timestamp`: \(text.prefix(80))"
        case .empty: "the file holds no ratings"
        }
    }
}

/// Reads ml-latest's `ratings.csv` (`userId,movieId,rating,timestamp`, with its header) and the
/// classic `u.data` (`user item rating timestamp`, tab- or space-separated, no header).
public enum RatingsFile {
    public static func read(_ url: URL) throws -> [RatingRecord] {
        try parse(String(contentsOf: url, encoding: .utf8))
    }

    public static func parse(_ text: String) throws -> [RatingRecord] {
        var records: [RatingRecord] = []
        for (number, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let fields = line.split(whereSeparator: { $0 == "," || $0 == "\t" || $0 == " " })
            if number == 0, fields.first.map({ Int64($0) == nil }) == true { continue }
            guard let record = RatingRecord(fields: fields) else { throw RatingsFileError.malformed(line: number + 1, text: String(line)) }
            records.append(record)
        }
        guard !records.isEmpty else { throw RatingsFileError.empty }
        return records
    }

    /// ml-latest's `movies.csv` (`movieId,title,genres`): titles and genres, for the genre term.
    public static func readMovies(_ url: URL) throws -> (titles: [Int64: String], genres: [Int64: [String]]) {
        var titles: [Int64: String] = [:], genres: [Int64: [String]] = [:]
        for movie in try MovieLensDataset.movieRows(url) {
            titles[movie.movieId] = movie.title
            genres[movie.movieId] = movie.genres
        }
        return (titles, genres)
    }
}
