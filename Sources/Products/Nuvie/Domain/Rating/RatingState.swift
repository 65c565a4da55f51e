import EventSourcing
/// One user's rating history of one film, folded from its `rating-{user}-{movie}` stream.
public struct RatingState: Sendable, Equatable {
    public var rating: Double?
    /// The review's id: the log position of the first rating that was a review.
    public var reviewId: Int64?

    public init() {}

    public static func fold(_ events: [Recorded<DomainEvent>]) -> RatingState {
        events.reduce(into: RatingState()) { $0.evolve($1) }
    }

    public mutating func evolve(_ recorded: Recorded<DomainEvent>) {
        guard case .movieRated(let rated) = recorded.event else { return }
        rating = rated.rating
        if rated.isReview && reviewId == nil { reviewId = Int64(recorded.position) }
    }
}
