import Foundation

/// A user rates a film from the app: whole stars, an optional comment, optionally as a review.
public struct RateMovie: Sendable, Equatable {
    public static let maximumCommentLength = 2000

    public var userId: Int64
    public var movieId: Int64
    public var rating: Int
    public var comment: String?
    public var isReview: Bool

    public init(userId: Int64, movieId: Int64, rating: Int, comment: String?, isReview: Bool) {
        self.userId = userId
        self.movieId = movieId
        self.rating = rating
        self.comment = comment
        self.isReview = isReview
    }

    public func decide(state: RatingState, movieExists: Bool) throws(NuvieDomainError) -> MovieRated {
        guard (1...5).contains(rating) else { throw .ratingInvalid("rating must be an integer from 1 to 5, got \(rating)") }
        guard movieExists else { throw .movieNotFound(movieId: movieId) }
        let trimmed = comment?.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = trimmed?.isEmpty == true ? nil : trimmed
        if let text, text.count > Self.maximumCommentLength {
            throw .invalid(field: "comment", reason: "at most \(Self.maximumCommentLength) characters")
        }
        return MovieRated(userId: userId, movieId: movieId, rating: Double(rating), previousRating: state.rating, comment: text, isReview: isReview)
    }
}
