import EventSourcing
import Foundation

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
