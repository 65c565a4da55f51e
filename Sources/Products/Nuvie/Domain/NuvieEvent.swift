import EventSourcing
import Foundation

/// Every fact Nuvie records. Projections switch over this; the codec maps it to and from the log
/// (`NuvieCatalog.payloadTypes`). Adding one: README.md, "Adding an event".
public enum NuvieEvent: Sendable, Equatable {
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
    case userErased(UserErased)
    case sessionStarted(SessionStarted)
    case sessionRefreshed(SessionRefreshed)
    case sessionsEnded(SessionsEnded)

    /// What this case carries. No default: a new case does not compile until it is listed here.
    public var payload: any NuvieEventPayload {
        switch self {
        case .movieAdded(let payload): payload
        case .movieTagged(let payload): payload
        case .identityClaimed(let payload): payload
        case .userRegistered(let payload): payload
        case .movieRated(let payload): payload
        case .reviewLiked(let payload): payload
        case .reviewUnliked(let payload): payload
        case .watchlistAdded(let payload): payload
        case .watchlistRemoved(let payload): payload
        case .watchProgressed(let payload): payload
        case .friendRequested(let payload): payload
        case .friendRequestAnswered(let payload): payload
        case .friendRequestCancelled(let payload): payload
        case .friendRemoved(let payload): payload
        case .userBlocked(let payload): payload
        case .userUnblocked(let payload): payload
        case .movieRecommended(let payload): payload
        case .profileUpdated(let payload): payload
        case .termsAccepted(let payload): payload
        case .userErased(let payload): payload
        case .sessionStarted(let payload): payload
        case .sessionRefreshed(let payload): payload
        case .sessionsEnded(let payload): payload
        }
    }

    /// The user whose action this is, if any.
    public var actorUserId: Int64? { payload.actorUserId }

    /// Other users this event concerns, for the per-user history.
    public var subjectUserIds: [Int64] { payload.subjectUserIds }
}

/// One kind of fact Nuvie records: its wire name and schema version, and the users it concerns
/// (declared by every payload, so a new one cannot leave them out).
public protocol NuvieEventPayload: EventPayload {
    /// The user whose action this is, if any.
    var actorUserId: Int64? { get }
    /// Other users this event concerns: their per-user history (audit, time travel) holds it too.
    var subjectUserIds: [Int64] { get }
}
