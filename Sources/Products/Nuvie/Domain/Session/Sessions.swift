import EventSourcing
import Foundation

/// A user's sessions as their `sessions-{id}` stream has them: each live one with its current
/// refresh token, and the last `spentKept` tokens it spent (to recognise reuse). Bounded: a session
/// whose last token has expired (`refreshLifetime` after it was issued) is dropped, and so are its
/// spent tokens, since every token it ever had is refused by its expiry first; one refreshed in a loop
/// keeps only its latest spent tokens, so an older one presented again is refused without ending it.
public struct SessionsState: StreamState, Equatable {
    public typealias Event = NuvieEvent

    public static let refreshLifetime: TimeInterval = 30 * 24 * 3600
    static let spentKept = 32

    struct Session: Equatable {
        var token: UUID
        var issuedAt: Date
        /// Oldest first.
        var spent: [UUID] = []
    }

    private(set) var sessions: [UUID: Session] = [:]
    private var spentBy: [UUID: UUID] = [:]

    public init() {}

    public mutating func evolve(_ recorded: Recorded<NuvieEvent>) {
        switch recorded.event {
        case .sessionStarted(let e):
            sessions[e.sessionId] = Session(token: e.refreshTokenId, issuedAt: recorded.recordedAt)
        case .sessionRefreshed(let e):
            guard var session = sessions[e.sessionId] else { break }
            session.token = e.refreshTokenId
            session.issuedAt = recorded.recordedAt
            session.spent.append(e.replacedTokenId)
            spentBy[e.replacedTokenId] = e.sessionId
            if session.spent.count > Self.spentKept { spentBy[session.spent.removeFirst()] = nil }
            sessions[e.sessionId] = session
        case .sessionsEnded(let e):
            // An ended session's spent tokens no longer matter: its tokens are refused as ended.
            if let sessionId = e.sessionId { end(sessionId) } else {
                sessions.removeAll()
                spentBy.removeAll()
            }
        case .movieAdded, .movieTagged, .identityClaimed, .userRegistered, .movieRated, .reviewLiked, .reviewUnliked,
             .watchlistAdded, .watchlistRemoved, .watchProgressed, .friendRequested, .friendRequestAnswered,
             .friendRequestCancelled, .friendRemoved, .userBlocked, .userUnblocked, .movieRecommended, .profileUpdated,
             .termsAccepted, .userErased:
            break
        }
        for (sessionId, session) in sessions where recorded.recordedAt.timeIntervalSince(session.issuedAt) > Self.refreshLifetime { end(sessionId) }
    }

    private mutating func end(_ sessionId: UUID) {
        for token in sessions.removeValue(forKey: sessionId)?.spent ?? [] { spentBy[token] = nil }
    }

    public func isLive(_ sessionId: UUID) -> Bool { sessions[sessionId] != nil }

    /// The live session's current refresh token.
    public func token(of sessionId: UUID) -> UUID? { sessions[sessionId]?.token }

    /// The live session that spent `token`, among the tokens kept.
    public func session(thatSpent token: UUID) -> UUID? { spentBy[token] }

    public var hasLiveSessions: Bool { !sessions.isEmpty }

    public var retainedBytes: Int {
        MemoryLayout<Self>.size + sessions.count * (64 + MemoryLayout<Session>.size) + spentBy.count * (48 + 16)
    }
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
        guard let current = state.token(of: sessionId) else { return .refused }
        if current == tokenId {
            return .exchanged(SessionRefreshed(userId: userId, sessionId: sessionId, replacedTokenId: tokenId, refreshTokenId: newTokenId))
        }
        guard state.session(thatSpent: tokenId) == sessionId else { return .refused }
        return .reused(SessionsEnded(userId: userId, sessionId: sessionId, reason: .refreshTokenReused))
    }

    /// Ending a session already ended records nothing.
    public static func logout(userId: Int64, sessionId: UUID, state: SessionsState) -> [NuvieEvent] {
        state.isLive(sessionId) ? [.sessionsEnded(SessionsEnded(userId: userId, sessionId: sessionId, reason: .logout))] : []
    }

    public static func logoutEverywhere(userId: Int64, state: SessionsState) -> [NuvieEvent] {
        !state.hasLiveSessions ? [] : [.sessionsEnded(SessionsEnded(userId: userId, sessionId: nil, reason: .logoutEverywhere))]
    }
}
