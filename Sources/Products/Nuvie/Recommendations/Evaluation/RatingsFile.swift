import NuvieCommands
import Foundation

/// One rating as MovieLens files record it.
public struct RatingRecord: Sendable, Equatable {
    public var userId: Int64
    public var movieId: Int64
    public var rating: Double
    public var timestamp: Int64

    public init(userId: Int64, movieId: Int64, rating: Double, timestamp: Int64) {
        self.userId = userId
        self.movieId = movieId
        self.rating = rating
        self.timestamp = timestamp
    }
}

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
            guard fields.count >= 4, let user = Int64(fields[0]), let item = Int64(fields[1]),
                  let rating = Double(fields[2]), let time = Int64(fields[3])
            else { throw RatingsFileError.malformed(line: number + 1, text: String(line)) }
            records.append(RatingRecord(userId: user, movieId: item, rating: rating, timestamp: time))
        }
        guard !records.isEmpty else { throw RatingsFileError.empty }
        return records
    }

    /// ml-latest's `movies.csv` (`movieId,title,genres`): titles and genres, for the genre term.
    public static func readMovies(_ url: URL) throws -> (titles: [Int64: String], genres: [Int64: [String]]) {
        var titles: [Int64: String] = [:], genres: [Int64: [String]] = [:]
        for row in CSV.rows(try String(contentsOf: url, encoding: .utf8)).dropFirst() where row.count >= 3 {
            guard let id = Int64(row[0]) else { continue }
            titles[id] = row[1]
            genres[id] = MovieLensDataset.genres(row[2])
        }
        return (titles, genres)
    }
}
