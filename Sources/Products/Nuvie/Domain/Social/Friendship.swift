import EventSourcing

/// Where two users stand, folded from their `friendship-{low}-{high}` stream: every request,
/// answer, unfriending and block between the two is decided against this one stream.
public struct FriendshipState: EventFold, Equatable {
    public typealias Event = NuvieEvent

    public enum Status: Sendable, Equatable {
        case none
        case requested(by: Int64)
        case friends
    }

    public var status: Status = .none
    public var blockedBy: Set<Int64> = []

    public init() {}

    public var isBlocked: Bool { !blockedBy.isEmpty }

    public mutating func evolve(_ event: NuvieEvent) {
        switch event {
        case .friendRequested(let e): status = .requested(by: e.fromUserId)
        case .friendRequestAnswered(let e): status = e.answer == .accepted ? .friends : .none
        case .friendRequestCancelled, .friendRemoved: status = .none
        case .userBlocked(let e):
            blockedBy.insert(e.userId)
            status = .none
        case .userUnblocked(let e): blockedBy.remove(e.userId)
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .movieRated, .reviewLiked, .reviewUnliked,
             .watchlistAdded, .watchlistRemoved, .watchProgressed, .movieRecommended, .profileUpdated, .termsAccepted,
             .userErased, .sessionStarted, .sessionRefreshed, .sessionsEnded: break
        }
    }
}

/// The social commands' rules. `userExists` is whether the other user is registered and not erased:
/// an erased user's requests, friendships and blocks are gone from every list, so none can be
/// answered, cancelled, recommended to or lifted either.
public enum FriendshipDecisions {
    public static func request(from userId: Int64, to otherId: Int64, state: FriendshipState, userExists: Bool) throws(NuvieDomainError) -> [NuvieEvent] {
        try checkOther(userId, otherId, userExists: userExists)
        // Blocked by them: they are not found, as `GET /users/{id}` says, so a block is not revealed.
        guard !state.blockedBy.contains(otherId) else { throw .userNotFound(userId: otherId) }
        guard !state.isBlocked else { throw .blocked(userId: otherId) }
        switch state.status {
        case .friends: throw .alreadyFriends(userId: otherId)
        case .requested(let by): throw .friendRequestExists(fromUserId: by, toUserId: by == userId ? otherId : userId)
        case .none: return [.friendRequested(FriendRequested(fromUserId: userId, toUserId: otherId))]
        }
    }

    /// Accept or decline the request `requesterId` sent to `userId`.
    public static func answer(
        _ answer: FriendRequestAnswered.Answer, by userId: Int64, requesterId: Int64, state: FriendshipState, userExists: Bool
    ) throws(NuvieDomainError) -> [NuvieEvent] {
        guard state.status == .requested(by: requesterId), requesterId != userId, userExists else {
            throw .friendRequestNotFound(fromUserId: requesterId, toUserId: userId)
        }
        return [.friendRequestAnswered(FriendRequestAnswered(fromUserId: requesterId, toUserId: userId, answer: answer))]
    }

    public static func cancel(by userId: Int64, to otherId: Int64, state: FriendshipState, userExists: Bool) throws(NuvieDomainError) -> [NuvieEvent] {
        guard state.status == .requested(by: userId), userExists else { throw .friendRequestNotFound(fromUserId: userId, toUserId: otherId) }
        return [.friendRequestCancelled(FriendRequestCancelled(fromUserId: userId, toUserId: otherId))]
    }

    public static func unfriend(by userId: Int64, friend otherId: Int64, state: FriendshipState) throws(NuvieDomainError) -> [NuvieEvent] {
        guard state.status == .friends else { throw .notFriends(userId: otherId) }
        return [.friendRemoved(FriendRemoved(userId: userId, friendId: otherId))]
    }

    /// Blocking twice, or unblocking someone not blocked, records nothing.
    public static func block(by userId: Int64, other otherId: Int64, state: FriendshipState, userExists: Bool) throws(NuvieDomainError) -> [NuvieEvent] {
        try checkOther(userId, otherId, userExists: userExists)
        return state.blockedBy.contains(userId) ? [] : [.userBlocked(UserBlocked(userId: userId, blockedUserId: otherId))]
    }

    public static func unblock(by userId: Int64, other otherId: Int64, state: FriendshipState, userExists: Bool) throws(NuvieDomainError) -> [NuvieEvent] {
        try checkOther(userId, otherId, userExists: userExists)
        return state.blockedBy.contains(userId) ? [.userUnblocked(UserUnblocked(userId: userId, blockedUserId: otherId))] : []
    }

    /// A film can be recommended only to friends, at most `maximumRecipients` at a time.
    public static let maximumRecipients = 50

    public static func recommend(
        movieId: Int64, by userId: Int64, to recipients: [(userId: Int64, state: FriendshipState, userExists: Bool)], movieExists: Bool
    ) throws(NuvieDomainError) -> MovieRecommended {
        guard movieExists else { throw .movieNotFound(movieId: movieId) }
        guard !recipients.isEmpty, recipients.count <= maximumRecipients else {
            throw .invalid(field: "user_ids", reason: "must list 1 to \(maximumRecipients) friends")
        }
        for recipient in recipients {
            guard recipient.userExists else { throw .userNotFound(userId: recipient.userId) }
            guard recipient.state.status == .friends else { throw .notFriends(userId: recipient.userId) }
        }
        return MovieRecommended(fromUserId: userId, movieId: movieId, toUserIds: recipients.map(\.userId))
    }

    private static func checkOther(_ userId: Int64, _ otherId: Int64, userExists: Bool) throws(NuvieDomainError) {
        guard userId != otherId else { throw .invalid(field: "user_id", reason: "must be another user") }
        guard userExists else { throw .userNotFound(userId: otherId) }
    }
}
