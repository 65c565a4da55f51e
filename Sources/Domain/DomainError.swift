/// A command the domain refuses, with the reason in its own terms. The API maps each to a response.
public enum DomainError: Error, Equatable, Sendable {
    case movieNotFound(movieId: Int64)
    case userNotFound(userId: Int64)
    case reviewNotFound(reviewId: Int64)
    case ratingInvalid(String)
    case invalid(field: String, reason: String)
}
