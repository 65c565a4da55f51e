/// A user rated a film; with `isReview` the rating is (or updates) their public review of it.
///
/// Schema 1. `rating` keeps the value as given: the app sends whole stars 1–5, MovieLens has half stars
/// 0.5–5.0. `previousRating` is the user's rating of this film before this one, so a fold can keep
/// averages without looking anything up.
public struct MovieRated: EventPayload {
    public static let typeName = "movie-rated"
    public static let schemaVersion: UInt16 = 1

    public var userId: Int64
    public var movieId: Int64
    public var rating: Double
    public var previousRating: Double?
    public var comment: String?
    public var isReview: Bool

    public init(userId: Int64, movieId: Int64, rating: Double, previousRating: Double?, comment: String?, isReview: Bool) {
        self.userId = userId
        self.movieId = movieId
        self.rating = rating
        self.previousRating = previousRating
        self.comment = comment
        self.isReview = isReview
    }

    /// The rating as the app shows it: whole stars 1–5, half stars rounded up.
    public var stars: Int { Self.stars(rating) }

    /// A rating of 4 or more means the user liked the film (favourites, taste, "because you rated").
    public static let likedThreshold = 4.0

    public static func stars(_ rating: Double) -> Int { min(5, max(1, Int(rating.rounded(.toNearestOrAwayFromZero)))) }
}
