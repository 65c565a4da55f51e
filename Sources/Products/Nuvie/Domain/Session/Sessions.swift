import EventSourcing
import Foundation

/// A user's sessions as their `sessions-{id}` stream has them: each live one with its current
/// refresh token, and the tokens it spent (to recognise reuse).
public struct SessionsState: EventFold, Equatable {
    public typealias Event = NuvieEvent

    public private(set) var live: [UUID: UUID] = [:]
    public private(set) var spent: [UUID: UUID] = [:]

    public init() {}

    public mutating func evolve(_ event: NuvieEvent) {
        switch event {
        case .sessionStarted(let e):
            live[e.sessionId] = e.refreshTokenId
        case .sessionRefreshed(let e):
            live[e.sessionId] = e.refreshTokenId
            spent[e.replacedTokenId] = e.sessionId
        case .sessionsEnded(let e):
            // An ended session's spent tokens no longer matter: its tokens are refused as ended.
            if let sessionId = e.sessionId {
                live[sessionId] = nil
                spent = spent.filter { $0.value != sessionId }
            } else {
                live.removeAll()
                spent.removeAll()
            }
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .movieRated, .reviewLiked, .reviewUnliked,
             .watchlistAdded, .watchlistRemoved, .watchProgressed, .friendRequested, .friendRequestAnswered,
             .friendRequestCancelled, .friendRemoved, .userBlocked, .userUnblocked, .movieRecommended, .profileUpdated,
             .termsAccepted, .userErased:
            break
        }
    }

    public func isLive(_ sessionId: UUID) -> Bool { live[sessionId] != nil }
}

public enum SessionDecisions {
    /// What presenting a refresh token decides.
    public enum Refresh: Equatable, Sendable {
        /// The current token of a live session: exchanged for `refreshTokenId`.
        case exchanged(SessionRefreshed)
        /// A spent token of a live session: the session ends, and the caller is refused.
        case reused(SessionsEnded)
        /// A token of an ended session, or one never issued: refused, nothing recorded.
        case refused
    }

    public static func refresh(userId: Int64, sessionId: UUID, tokenId: UUID, newTokenId: UUID, state: SessionsState) -> Refresh {
        guard let current = state.live[sessionId] else { return .refused }
        if current == tokenId {
            return .exchanged(SessionRefreshed(userId: userId, sessionId: sessionId, replacedTokenId: tokenId, refreshTokenId: newTokenId))
        }
        guard state.spent[tokenId] == sessionId else { return .refused }
        return .reused(SessionsEnded(userId: userId, sessionId: sessionId, reason: .refreshTokenReused))
    }

    /// Ending a session already ended records nothing.
    public static func logout(userId: Int64, sessionId: UUID, state: SessionsState) -> [NuvieEvent] {
        state.isLive(sessionId) ? [.sessionsEnded(SessionsEnded(userId: userId, sessionId: sessionId, reason: .logout))] : []
    }

    public static func logoutEverywhere(userId: Int64, state: SessionsState) -> [NuvieEvent] {
        state.live.isEmpty ? [] : [.sessionsEnded(SessionsEnded(userId: userId, sessionId: nil, reason: .logoutEverywhere))]
    }
}
