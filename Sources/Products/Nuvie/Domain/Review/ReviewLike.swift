import EventSourcing

/// Whether one user likes one review, folded from its `review-like-{review}-{user}` stream.
public struct ReviewLikeState: EventFold, Equatable {
    public typealias Event = NuvieEvent

    public var isLiked = false

    public init() {}

    public mutating func evolve(_ event: NuvieEvent) {
        switch event {
        case .reviewLiked: isLiked = true
        case .reviewUnliked: isLiked = false
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .movieRated, .watchlistAdded, .watchlistRemoved,
             .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled, .friendRemoved, .userBlocked,
             .userUnblocked, .movieRecommended, .profileUpdated, .termsAccepted, .userErased, .sessionStarted, .sessionRefreshed,
             .sessionsEnded: break
        }
    }
}

/// The review a like or unlike is about, as found in the log.
public struct ReviewRef: Sendable, Equatable {
    public var reviewId: Int64
    public var authorId: Int64
    public var movieId: Int64

    public init(reviewId: Int64, authorId: Int64, movieId: Int64) {
        self.reviewId = reviewId
        self.authorId = authorId
        self.movieId = movieId
    }
}

public enum ReviewLikeDecision {
    /// Liking twice is not an error: the second like records nothing. A review between users where
    /// either blocked the other (`between`, their friendship's state) is not there for the liker, as
    /// the review lists do not show it.
    public static func like(_ review: ReviewRef, by userId: Int64, state: ReviewLikeState, between: FriendshipState) throws(NuvieDomainError) -> [NuvieEvent] {
        guard review.authorId == userId || !between.isBlocked else { throw .reviewNotFound(reviewId: review.reviewId) }
        return state.isLiked ? [] : [.reviewLiked(ReviewLiked(reviewId: review.reviewId, userId: userId, reviewAuthorId: review.authorId, movieId: review.movieId))]
    }

    /// Taking a like back is always allowed, a block in between included.
    public static func unlike(_ review: ReviewRef, by userId: Int64, state: ReviewLikeState) -> [NuvieEvent] {
        state.isLiked ? [.reviewUnliked(ReviewUnliked(reviewId: review.reviewId, userId: userId, reviewAuthorId: review.authorId, movieId: review.movieId))] : []
    }
}
