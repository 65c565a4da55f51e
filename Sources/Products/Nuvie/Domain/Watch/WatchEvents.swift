import EventSourcing
/// A user put a film on their watchlist.
public struct WatchlistAdded: NuvieEventPayload {
    public static let typeName = "watchlist-added"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var userId: Int64
    public var movieId: Int64

    public init(userId: Int64, movieId: Int64) {
        self.userId = userId
        self.movieId = movieId
    }
}

/// A user took a film off their watchlist.
public struct WatchlistRemoved: NuvieEventPayload {
    public static let typeName = "watchlist-removed"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var userId: Int64
    public var movieId: Int64

    public init(userId: Int64, movieId: Int64) {
        self.userId = userId
        self.movieId = movieId
    }
}

/// What the player reported: a film started, paused or completed, and how far in.
public enum WatchEventType: String, Codable, Sendable, CaseIterable {
    case started, paused, completed
}

public struct WatchProgressed: NuvieEventPayload {
    public static let typeName = "watch-progressed"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var userId: Int64
    public var movieId: Int64
    public var eventType: WatchEventType
    public var progressPercent: Int

    public init(userId: Int64, movieId: Int64, eventType: WatchEventType, progressPercent: Int) {
        self.userId = userId
        self.movieId = movieId
        self.eventType = eventType
        self.progressPercent = progressPercent
    }
}
