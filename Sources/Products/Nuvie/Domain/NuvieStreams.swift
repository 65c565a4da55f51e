/// Stream ids. A stream is the consistency boundary a decision is checked against.
public enum NuvieStreams {
    public static func movie(_ movieId: Int64) -> String { "movie-\(movieId)" }
    public static func user(_ userId: Int64) -> String { "user-\(userId)" }
    public static let userPrefix = "user-"
    /// One stream per sign-in identity makes "one user per identity" an expected-version check; its
    /// name holds a hash of the subject, never the subject (`SignInIdentity`).
    public static func identity(_ identity: Identity) -> String { identity.signIn.stream }
    /// One stream per (user, movie) holds that user's ratings and review of that movie.
    public static func rating(userId: Int64, movieId: Int64) -> String { "rating-\(userId)-\(movieId)" }
    public static func watchlist(userId: Int64, movieId: Int64) -> String { "watchlist-\(userId)-\(movieId)" }
    public static func watch(userId: Int64, movieId: Int64) -> String { "watch-\(userId)-\(movieId)" }
    /// One stream per pair of users, lower id first, holds every request, answer and block between them.
    public static func friendship(_ a: Int64, _ b: Int64) -> String { "friendship-\(min(a, b))-\(max(a, b))" }
    /// One stream per user holds their sessions (refresh-token families), so a refresh is checked
    /// against every token of the family.
    public static func sessions(_ userId: Int64) -> String { "sessions-\(userId)" }
    public static func recommendations(fromUserId: Int64) -> String { "recommendations-\(fromUserId)" }
    public static func reviewLike(reviewId: Int64, userId: Int64) -> String { "review-like-\(reviewId)-\(userId)" }
}
