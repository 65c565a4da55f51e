import Foundation

/// One kind of fact the log records: a stable wire name, a schema version and a Codable payload.
public protocol EventPayload: Codable, Sendable, Equatable {
    static var typeName: String { get }
    static var schemaVersion: UInt16 { get }
}

/// Every fact Nuvie records. Projections switch over this; the codec maps it to and from the log.
public enum DomainEvent: Sendable, Equatable {
    case movieAdded(MovieAdded)
    case movieTagged(MovieTagged)
    case identityClaimed(IdentityClaimed)
    case userRegistered(UserRegistered)
    case movieRated(MovieRated)
    case reviewLiked(ReviewLiked)
    case reviewUnliked(ReviewUnliked)
    case watchlistAdded(WatchlistAdded)
    case watchlistRemoved(WatchlistRemoved)
    case watchProgressed(WatchProgressed)
    case friendRequested(FriendRequested)
    case friendRequestAnswered(FriendRequestAnswered)
    case friendRequestCancelled(FriendRequestCancelled)
    case friendRemoved(FriendRemoved)
    case userBlocked(UserBlocked)
    case userUnblocked(UserUnblocked)
    case movieRecommended(MovieRecommended)
    case profileUpdated(ProfileUpdated)
    case termsAccepted(TermsAccepted)

    /// The user whose action this is, if any.
    public var actorUserId: Int64? {
        switch self {
        case .movieAdded: nil
        case .movieTagged(let e): e.userId
        case .identityClaimed(let e): e.userId
        case .userRegistered(let e): e.userId
        case .movieRated(let e): e.userId
        case .reviewLiked(let e): e.userId
        case .reviewUnliked(let e): e.userId
        case .watchlistAdded(let e): e.userId
        case .watchlistRemoved(let e): e.userId
        case .watchProgressed(let e): e.userId
        case .friendRequested(let e): e.fromUserId
        case .friendRequestAnswered(let e): e.toUserId
        case .friendRequestCancelled(let e): e.fromUserId
        case .friendRemoved(let e): e.userId
        case .userBlocked(let e): e.userId
        case .userUnblocked(let e): e.userId
        case .movieRecommended(let e): e.fromUserId
        case .profileUpdated(let e): e.userId
        case .termsAccepted(let e): e.userId
        }
    }

    /// Other users this event concerns, for the per-user history.
    public var subjectUserIds: [Int64] {
        switch self {
        case .reviewLiked(let e): [e.reviewAuthorId]
        case .reviewUnliked(let e): [e.reviewAuthorId]
        case .friendRequested(let e): [e.toUserId]
        case .friendRequestAnswered(let e): [e.fromUserId]
        case .friendRequestCancelled(let e): [e.toUserId]
        case .friendRemoved(let e): [e.friendId]
        case .userBlocked(let e): [e.blockedUserId]
        case .userUnblocked(let e): [e.blockedUserId]
        case .movieRecommended(let e): e.toUserIds
        default: []
        }
    }
}

/// An event as read back from the log: the fact and where and when it was recorded.
public struct Recorded<Event: Sendable & Equatable>: Sendable, Equatable {
    public var position: UInt64
    public var eventId: UUID
    public var streamId: String
    public var streamVersion: UInt64
    public var recordedAt: Date
    public var event: Event

    public init(position: UInt64, eventId: UUID, streamId: String, streamVersion: UInt64, recordedAt: Date, event: Event) {
        self.position = position
        self.eventId = eventId
        self.streamId = streamId
        self.streamVersion = streamVersion
        self.recordedAt = recordedAt
        self.event = event
    }
}
