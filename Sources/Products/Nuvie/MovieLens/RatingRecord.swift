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

    /// A row's `userId, movieId, rating, timestamp` (further fields ignored); nil when they are not numbers.
    init?(fields: [some StringProtocol]) {
        guard fields.count >= 4, let user = Int64(fields[0]), let movie = Int64(fields[1]),
              let rating = Double(fields[2]), let time = Int64(fields[3])
        else { return nil }
        self.init(userId: user, movieId: movie, rating: rating, timestamp: time)
    }
}
