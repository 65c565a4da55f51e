import EventLog
import EventSourcing
import Foundation
import NuvieDomain

/// Sessions: signing in starts one, a refresh rotates its token, logging out ends it; all recorded
/// in the user's `sessions-{id}` stream, which token checks read directly (no read model lags them).
extension NuvieCommandService {
    public struct SessionGrant: Sendable, Equatable {
        public var sessionId: UUID
        public var refreshTokenId: UUID
    }

    /// The refresh token presented was spent before: its session is ended (recorded) and the caller refused.
    public struct RefreshTokenReused: Error, Equatable {}

    /// A new session, recorded; on a server showing a past state (read-only) it cannot be, and its
    /// tokens are checked by signature and user only (`NuvieTokens`'s `isLive` there).
    public func startSession(for userId: Int64) async throws -> SessionGrant {
        let grant = SessionGrant(sessionId: UUID(), refreshTokenId: UUID())
        do {
            _ = try await log.append(
                [.sessionStarted(SessionStarted(userId: userId, sessionId: grant.sessionId, refreshTokenId: grant.refreshTokenId))],
                to: NuvieStreams.sessions(userId), eventId: .timeOrdered()
            )
        } catch EventLogError.readOnly {}
        return grant
    }

    /// The session's next refresh token, or nil when the session is ended or the token unknown;
    /// throws `RefreshTokenReused` after ending the session when the token was already spent.
    public func refreshSession(userId: Int64, sessionId: UUID, tokenId: UUID) async throws -> SessionGrant? {
        guard try userExists(userId) else { return nil }
        let newTokenId = UUID()
        var decision = SessionDecisions.Refresh.refused
        _ = try await log.decideAndAppend(NuvieStreams.sessions(userId), as: SessionsState.self, eventId: .timeOrdered()) { state in
            decision = SessionDecisions.refresh(
                userId: userId, sessionId: sessionId, tokenId: tokenId, newTokenId: newTokenId, state: state
            )
            switch decision {
            case .exchanged(let refreshed): return [.sessionRefreshed(refreshed)]
            case .reused(let ended): return [.sessionsEnded(ended)]
            case .refused: return []
            }
        }
        switch decision {
        case .exchanged: return SessionGrant(sessionId: sessionId, refreshTokenId: newTokenId)
        case .reused: throw RefreshTokenReused()
        case .refused: return nil
        }
    }

    public func logout(userId: Int64, sessionId: UUID) async throws -> CommandResult {
        try await log.decideAndAppend(NuvieStreams.sessions(userId), as: SessionsState.self, eventId: .timeOrdered()) { state in
            SessionDecisions.logout(userId: userId, sessionId: sessionId, state: state)
        }
    }

    public func logoutEverywhere(userId: Int64) async throws -> CommandResult {
        try await log.decideAndAppend(NuvieStreams.sessions(userId), as: SessionsState.self, eventId: .timeOrdered()) { state in
            SessionDecisions.logoutEverywhere(userId: userId, state: state)
        }
    }

    /// Whether a token of this session may open anything: its user registered and not erased, and
    /// the session not ended.
    public func sessionIsLive(userId: Int64, sessionId: UUID) throws -> Bool {
        try userExists(userId) && log.state(of: NuvieStreams.sessions(userId), as: SessionsState.self).state.isLive(sessionId)
    }
}
