import EventSourcing
import Foundation

/// A user signed in on a device: a session began, with its first refresh token. A session is a
/// refresh-token family (OAuth 2.0 Security BCP): each refresh replaces its token, and presenting a
/// replaced one ends the family.
public struct SessionStarted: NuvieEventPayload {
    public static let typeName = "session-started"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var userId: Int64
    public var sessionId: UUID
    public var refreshTokenId: UUID

    public init(userId: Int64, sessionId: UUID, refreshTokenId: UUID) {
        self.userId = userId
        self.sessionId = sessionId
        self.refreshTokenId = refreshTokenId
    }
}

/// A session's refresh token was exchanged: `replacedTokenId` is spent, `refreshTokenId` is current.
public struct SessionRefreshed: NuvieEventPayload {
    public static let typeName = "session-refreshed"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var userId: Int64
    public var sessionId: UUID
    public var replacedTokenId: UUID
    public var refreshTokenId: UUID

    public init(userId: Int64, sessionId: UUID, replacedTokenId: UUID, refreshTokenId: UUID) {
        self.userId = userId
        self.sessionId = sessionId
        self.replacedTokenId = replacedTokenId
        self.refreshTokenId = refreshTokenId
    }
}

/// Sessions ended: one (`sessionId`), or every live one of the user (`sessionId` nil). Their access
/// and refresh tokens open nothing from then on.
public struct SessionsEnded: NuvieEventPayload {
    public static let typeName = "sessions-ended"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public enum Reason: String, Codable, Sendable {
        /// `POST /auth/logout`: this device.
        case logout
        /// `POST /auth/logout-all`: every device.
        case logoutEverywhere = "logout-everywhere"
        /// A spent refresh token was presented again: stolen or replayed, so the whole family ends.
        case refreshTokenReused = "refresh-token-reused"
    }

    public var userId: Int64
    public var sessionId: UUID?
    public var reason: Reason

    public init(userId: Int64, sessionId: UUID?, reason: Reason) {
        self.userId = userId
        self.sessionId = sessionId
        self.reason = reason
    }
}
