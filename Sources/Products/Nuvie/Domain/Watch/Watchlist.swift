import EventSourcing

/// Whether a film is on a user's watchlist, folded from its `watchlist-{user}-{movie}` stream.
public struct WatchlistState: EventFold, Equatable {
    public typealias Event = NuvieEvent

    public var isListed = false

    public init() {}

    public mutating func evolve(_ event: NuvieEvent) {
        switch event {
        case .watchlistAdded: isListed = true
        case .watchlistRemoved: isListed = false
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .movieRated, .reviewLiked, .reviewUnliked,
             .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled, .friendRemoved, .userBlocked,
             .userUnblocked, .movieRecommended, .profileUpdated, .termsAccepted, .userErased, .sessionStarted, .sessionRefreshed,
             .sessionsEnded: break
        }
    }
}

public enum WatchlistAction: String, Sendable, CaseIterable {
    case add, remove
}

public enum WatchDecisions {
    /// Adding what is listed, or removing what is not, records nothing.
    public static func watchlist(_ action: WatchlistAction, userId: Int64, movieId: Int64, state: WatchlistState, movieExists: Bool) throws(NuvieDomainError) -> [NuvieEvent] {
        guard movieExists else { throw .movieNotFound(movieId: movieId) }
        switch (action, state.isListed) {
        case (.add, false): return [.watchlistAdded(WatchlistAdded(userId: userId, movieId: movieId))]
        case (.remove, true): return [.watchlistRemoved(WatchlistRemoved(userId: userId, movieId: movieId))]
        case (.add, true), (.remove, false): return []
        }
    }

    public static func watch(_ type: WatchEventType, progressPercent: Int, userId: Int64, movieId: Int64, movieExists: Bool) throws(NuvieDomainError) -> WatchProgressed {
        guard (0...100).contains(progressPercent) else { throw .invalid(field: "progress_percent", reason: "must be an integer from 0 to 100") }
        guard movieExists else { throw .movieNotFound(movieId: movieId) }
        return WatchProgressed(userId: userId, movieId: movieId, eventType: type, progressPercent: progressPercent)
    }
}
