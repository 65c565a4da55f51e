import EventSourcing
/// `fromUserId` asked `toUserId` to be friends.
public struct FriendRequested: NuvieEventPayload {
    public static let typeName = "friend-requested"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { fromUserId }
    public var subjectUserIds: [Int64] { [toUserId] }

    public var fromUserId: Int64
    public var toUserId: Int64

    public init(fromUserId: Int64, toUserId: Int64) {
        self.fromUserId = fromUserId
        self.toUserId = toUserId
    }
}

/// The answer to a pending request, from the user it was sent to: `accepted` makes them friends.
public struct FriendRequestAnswered: NuvieEventPayload {
    public static let typeName = "friend-request-answered"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { toUserId }
    public var subjectUserIds: [Int64] { [fromUserId] }

    public enum Answer: String, Codable, Sendable { case accepted, declined }

    public var fromUserId: Int64
    public var toUserId: Int64
    public var answer: Answer

    public init(fromUserId: Int64, toUserId: Int64, answer: Answer) {
        self.fromUserId = fromUserId
        self.toUserId = toUserId
        self.answer = answer
    }
}

/// The sender withdrew a pending request.
public struct FriendRequestCancelled: NuvieEventPayload {
    public static let typeName = "friend-request-cancelled"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { fromUserId }
    public var subjectUserIds: [Int64] { [toUserId] }

    public var fromUserId: Int64
    public var toUserId: Int64

    public init(fromUserId: Int64, toUserId: Int64) {
        self.fromUserId = fromUserId
        self.toUserId = toUserId
    }
}

/// `userId` ended their friendship with `friendId`.
public struct FriendRemoved: NuvieEventPayload {
    public static let typeName = "friend-removed"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [friendId] }

    public var userId: Int64
    public var friendId: Int64

    public init(userId: Int64, friendId: Int64) {
        self.userId = userId
        self.friendId = friendId
    }
}

/// `userId` blocked `blockedUserId`: any friendship or pending request between them ends, and
/// neither can send the other a request or see the other's activity until it is lifted.
public struct UserBlocked: NuvieEventPayload {
    public static let typeName = "user-blocked"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [blockedUserId] }

    public var userId: Int64
    public var blockedUserId: Int64

    public init(userId: Int64, blockedUserId: Int64) {
        self.userId = userId
        self.blockedUserId = blockedUserId
    }
}

public struct UserUnblocked: NuvieEventPayload {
    public static let typeName = "user-unblocked"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [blockedUserId] }

    public var userId: Int64
    public var blockedUserId: Int64

    public init(userId: Int64, blockedUserId: Int64) {
        self.userId = userId
        self.blockedUserId = blockedUserId
    }
}

/// A user recommended a film to some of their friends ("recommend to friend" on the detail screen).
public struct MovieRecommended: NuvieEventPayload {
    public static let typeName = "movie-recommended"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { fromUserId }
    public var subjectUserIds: [Int64] { toUserIds }

    public var fromUserId: Int64
    public var movieId: Int64
    public var toUserIds: [Int64]

    public init(fromUserId: Int64, movieId: Int64, toUserIds: [Int64]) {
        self.fromUserId = fromUserId
        self.movieId = movieId
        self.toUserIds = toUserIds
    }
}
