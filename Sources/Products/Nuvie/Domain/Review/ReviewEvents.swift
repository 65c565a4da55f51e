import EventSourcing
/// A user liked a review.
public struct ReviewLiked: NuvieEventPayload {
    public static let typeName = "review-liked"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [reviewAuthorId] }

    public var reviewId: Int64
    public var userId: Int64
    public var reviewAuthorId: Int64
    public var movieId: Int64

    public init(reviewId: Int64, userId: Int64, reviewAuthorId: Int64, movieId: Int64) {
        self.reviewId = reviewId
        self.userId = userId
        self.reviewAuthorId = reviewAuthorId
        self.movieId = movieId
    }
}

/// A user took back their like of a review.
public struct ReviewUnliked: NuvieEventPayload {
    public static let typeName = "review-unliked"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [reviewAuthorId] }

    public var reviewId: Int64
    public var userId: Int64
    public var reviewAuthorId: Int64
    public var movieId: Int64

    public init(reviewId: Int64, userId: Int64, reviewAuthorId: Int64, movieId: Int64) {
        self.reviewId = reviewId
        self.userId = userId
        self.reviewAuthorId = reviewAuthorId
        self.movieId = movieId
    }
}
