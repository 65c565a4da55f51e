import EventSourcing
/// One user's rating history of one film, folded from its `rating-{user}-{movie}` stream.
public struct RatingState: StreamState, Equatable {
    public var rating: Double?
    /// The review's id: the log position of the first rating that was a review.
    public var reviewId: Int64?

    public init() {}

    public mutating func evolve(_ recorded: Recorded<NuvieEvent>) {
        guard case .movieRated(let rated) = recorded.event else { return }
        rating = rated.rating
        if rated.isReview && reviewId == nil { reviewId = Int64(recorded.position) }
    }
}
