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

    /// A row's `userId, movieId, rating, timestamp` (further fields ignored) when it is a rating:
    /// positive ids, a rating of 0.5 to 5.0 on the half-star grid, a timestamp of 0 or more (seconds
    /// since 1970). Otherwise why not.
    static func parse(_ fields: [some StringProtocol]) -> Result<RatingRecord, Refusal> {
        guard fields.count >= 4 else { return .failure(Refusal("not userId, movieId, rating, timestamp")) }
        guard let user = Int64(fields[0]), user > 0 else { return .failure(Refusal("user id \(fields[0]) is not a positive integer")) }
        guard let movie = Int64(fields[1]), movie > 0 else { return .failure(Refusal("movie id \(fields[1]) is not a positive integer")) }
        guard let rating = Double(fields[2]), (0.5...5.0).contains(rating), (rating * 2).rounded() == rating * 2 else {
            return .failure(Refusal("rating \(fields[2]) is not 0.5 to 5.0 in half stars"))
        }
        guard let time = Int64(fields[3]), time >= 0 else { return .failure(Refusal("timestamp \(fields[3]) is not seconds since 1970")) }
        return .success(RatingRecord(userId: user, movieId: movie, rating: rating, timestamp: time))
    }

    struct Refusal: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
