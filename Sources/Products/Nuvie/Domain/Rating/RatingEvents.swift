import EventSourcing
/// A user rated a film; with `isReview` the rating is (or updates) their public review of it.
///
/// Schema 2. `rating` keeps the value as given: the app sends whole stars 1–5, MovieLens has half stars
/// 0.5–5.0. `stars` (new in schema 2) is the whole-star value the user was shown, recorded so that a
/// later change of the rounding rule never rewrites what a user saw; schema-1 events are upcast on
/// read (`MovieRatedV1`). `previousRating` is the user's rating of this film before this one, so a
/// fold can keep averages without looking anything up.
public struct MovieRated: NuvieEventPayload {
    public static let typeName = "movie-rated"
    public static let schemaVersion: UInt16 = 2
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var userId: Int64
    public var movieId: Int64
    public var rating: Double
    public var previousRating: Double?
    /// The review's text: personal, nil once the user is erased.
    @Personal public var comment: String?
    public var isReview: Bool
    /// The rating as the app showed it: whole stars 1–5.
    public var stars: Int

    public init(userId: Int64, movieId: Int64, rating: Double, previousRating: Double?, comment: String?, isReview: Bool) {
        self.userId = userId
        self.movieId = movieId
        self.rating = rating
        self.previousRating = previousRating
        self.comment = comment
        self.isReview = isReview
        self.stars = Self.stars(rating)
    }

    /// A rating of 4 or more means the user liked the film (favourites, taste, "because you rated").
    public static let likedThreshold = 4.0

    /// A friend "rated it highly" when the app shows their rating as 4 or 5 stars (3.5 included: half
    /// stars round up), so the words agree with the stars next to them.
    public static let highlyRatedThreshold = 3.5

    /// Whole stars 1–5, half stars rounded up.
    public static func stars(_ rating: Double) -> Int { min(5, max(1, Int(rating.rounded(.toNearestOrAwayFromZero)))) }
}

/// `movie-rated` as schema 1 wrote it, before `stars` was recorded. Frozen: logs written then still
/// hold it. Upcast with the rounding rule of that time (half stars up).
struct MovieRatedV1: EventPayload {
    static let typeName = MovieRated.typeName
    static let schemaVersion: UInt16 = 1

    var userId: Int64
    var movieId: Int64
    var rating: Double
    var previousRating: Double?
    @Personal var comment: String?
    var isReview: Bool

    var upcast: MovieRated {
        MovieRated(userId: userId, movieId: movieId, rating: rating, previousRating: previousRating, comment: comment, isReview: isReview)
    }
}
