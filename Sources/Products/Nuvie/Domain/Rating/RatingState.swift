import EventSourcing
/// One user's rating history of one film, folded from its `rating-{user}-{movie}` stream.
public struct RatingState: StreamState, Equatable {
    public var rating: Double?
    /// The review's id: the log position of the first rating that was a review.
    public var reviewId: Int64?

    public init() {}

    public mutating func evolve(_ recorded: Recorded<NuvieEvent>) {
        switch recorded.event {
        case .movieRated(let rated):
            rating = rated.rating
            if rated.isReview && reviewId == nil { reviewId = Int64(recorded.position) }
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .reviewLiked, .reviewUnliked, .watchlistAdded,
             .watchlistRemoved, .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled, .friendRemoved,
             .userBlocked, .userUnblocked, .movieRecommended, .profileUpdated, .termsAccepted, .userErased, .sessionStarted,
             .sessionRefreshed, .sessionsEnded:
            break
        }
    }
}
