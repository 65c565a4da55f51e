import Foundation

public enum RatingsFileError: Error, CustomStringConvertible {
    case noRatings(String, rejected: RejectedRows)

    public var description: String {
        switch self {
        case .noRatings(let file, let rejected): rejected.isEmpty ? "\(file) holds no ratings" : "\(file) holds no ratings; rejected:\n\(rejected.report)"
        }
    }
}

/// Reads the ratings of every layout MovieLens has published: ml-latest's `ratings.csv`
/// (`userId,movieId,rating,timestamp`, with its header), ML-100K's `u.data` (`user item rating
/// timestamp`, tab- or space-separated, no header) and ML-1M's and ML-10M's `ratings.dat`
/// (`UserID::MovieID::Rating::Timestamp`). A row that is not a rating (`RatingRecord.parse`) is
/// rejected, with its line, and not read. Their films' genres likewise (`readMovies`).
public enum RatingsFile {
    /// The films' file beside a ratings file, in each layout: `movies.csv`, `movies.dat`, `u.item`.
    public static let movieFiles = ["movies.csv", "movies.dat", "u.item"]

    public static func read(_ url: URL) throws -> (ratings: [RatingRecord], rejected: RejectedRows) {
        try parse(String(contentsOf: url, encoding: .utf8), file: url.lastPathComponent)
    }

    public static func parse(_ text: String, file: String = "ratings") throws -> (ratings: [RatingRecord], rejected: RejectedRows) {
        var records: [RatingRecord] = []
        var rejected = RejectedRows()
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let fields = line.split(whereSeparator: { $0 == "," || $0 == "\t" || $0 == " " || $0 == ":" || $0 == "\r" })
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

    /// Titles and genres, for the genre term, from ml-latest's `movies.csv` (`movieId,title,genres`),
    /// ML-1M's and ML-10M's `movies.dat` (`MovieID::Title::Genres`) or ML-100K's `u.item` (`id|title|
    /// release|video release|IMDb URL|` and a 0 or 1 for each genre of the `u.genre` beside it, named
    /// by its index there; its `unknown` is no genre, as `movies.csv`'s "(no genres listed)" is, and
    /// without a `u.genre` no film has one).
    public static func readMovies(_ url: URL) throws -> (titles: [Int64: String], genres: [Int64: [String]]) {
        var titles: [Int64: String] = [:], genres: [Int64: [String]] = [:]
        func add(_ movieId: Int64, _ title: String, _ itsGenres: [String]) {
            titles[movieId] = title
            genres[movieId] = itsGenres
        }
        switch url.lastPathComponent {
        case "u.item":
            let names = try genreNames(url.deletingLastPathComponent().appendingPathComponent("u.genre"))
            for fields in try lines(url).map({ $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }) {
                // id, title, two dates and a link, then one flag per genre of `u.genre`, if it is there:
                // with it, a title holding a | is known by the fields left over.
                guard fields.count >= 5 + names.count, let movieId = Int64(fields[0]) else { continue }
                let title = names.isEmpty ? fields[1] : fields[1..<(fields.count - names.count - 3)].joined(separator: "|")
                add(movieId, title, zip(names, fields.suffix(names.count)).compactMap { name, flag in flag == "1" ? name : nil })
            }
        case let name where name.hasSuffix(".dat"):
            for fields in try lines(url).map({ $0.components(separatedBy: "::") }) where fields.count >= 3 {
                guard let movieId = Int64(fields[0]), let itsGenres = fields.last else { continue }
                add(movieId, fields.dropFirst().dropLast().joined(separator: "::"), MovieLensDataset.genres(itsGenres))
            }
        default:
            for movie in try MovieLensDataset.movieRows(url).movies { add(movie.movieId, movie.title, movie.genres) }
        }
        return (titles, genres)
    }

    /// `u.genre`'s `name|index` lines as names by index, `unknown` as nil; none when there is no file.
    private static func genreNames(_ url: URL) throws -> [String?] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        var names: [Int: String] = [:]
        for parts in try lines(url).map({ $0.split(separator: "|").map(String.init) }) where parts.count == 2 {
            if let index = Int(parts[1]), index >= 0 { names[index] = parts[0] }
        }
        return (0..<(names.keys.max().map { $0 + 1 } ?? 0)).map { names[$0].flatMap { $0 == "unknown" ? nil : $0 } }
    }

    /// A text file's lines, blank ones left out: UTF-8, or Latin-1 as ML-100K's and ML-1M's files are.
    private static func lines(_ url: URL) throws -> [String] {
        let data = try Data(contentsOf: url)
        let text = String(data: data, encoding: .utf8) ?? String(String.UnicodeScalarView(data.map { Unicode.Scalar($0) }))
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init)
    }
}
