import EventSourcing

/// A command the domain refuses, with the reason in its own terms. The API maps each to a response.
public enum NuvieDomainError: DecisionRefusal, Equatable, Sendable {
    case movieNotFound(movieId: Int64)
    case userNotFound(userId: Int64)
    case reviewNotFound(reviewId: Int64)
    case ratingInvalid(String)
    case invalid(field: String, reason: String)
    case friendRequestExists(fromUserId: Int64, toUserId: Int64)
    case friendRequestNotFound(fromUserId: Int64, toUserId: Int64)
    case alreadyFriends(userId: Int64)
    case notFriends(userId: Int64)
    /// One of the two users blocked the other.
    case blocked(userId: Int64)
}
