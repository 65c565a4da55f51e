import Foundation

public enum RatingsFileError: Error, CustomStringConvertible {
    case noRatings(String, rejected: RejectedRows)

    public var description: String {
        switch self {
        case .noRatings(let file, let rejected): rejected.isEmpty ? "\(file) holds no ratings" : "\(file) holds no ratings; rejected:\n\(rejected.report)"
        }
    }
}

/// Reads ml-latest's `ratings.csv` (`userId,movieId,rating,timestamp`, with its header) and the
/// classic `u.data` (`user item rating timestamp`, tab- or space-separated, no header). A row that is
/// not a rating (`RatingRecord.parse`) is rejected, with its line, and not read.
public enum RatingsFile {
    public static func read(_ url: URL) throws -> (ratings: [RatingRecord], rejected: RejectedRows) {
        try parse(String(contentsOf: url, encoding: .utf8), file: url.lastPathComponent)
    }

    public static func parse(_ text: String, file: String = "ratings") throws -> (ratings: [RatingRecord], rejected: RejectedRows) {
        var records: [RatingRecord] = []
        var rejected = RejectedRows()
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let fields = line.split(whereSeparator: { $0 == "," || $0 == "\t" || $0 == " " || $0 == "\r" })
            if fields.isEmpty { continue }
            if number == 0, Int64(fields[0]) == nil, Double(fields[0]) == nil { continue }
            switch RatingRecord.parse(fields) {
            case .success(let record): records.append(record)
            case .failure(let refusal): rejected.reject(file: file, line: number + 1, reason: refusal.reason, text: String(line))
            }
        }
        guard !records.isEmpty else { throw RatingsFileError.noRatings(file, rejected: rejected) }
        return (records, rejected)
    }

    /// ml-latest's `movies.csv` (`movieId,title,genres`): titles and genres, for the genre term.
    public static func readMovies(_ url: URL) throws -> (titles: [Int64: String], genres: [Int64: [String]]) {
        var titles: [Int64: String] = [:], genres: [Int64: [String]] = [:]
        for movie in try MovieLensDataset.movieRows(url).movies {
            titles[movie.movieId] = movie.title
            genres[movie.movieId] = movie.genres
        }
        return (titles, genres)
    }
}
