import AppleSignIn
import Foundation
import JWTKit
import NIOConcurrencyHelpers
import NuvieCommands
import NuvieDomain
import ReadModels

/// Issues and checks the backend's own tokens: HS256 JWTs, an access token (24 h) and a refresh
/// token (30 days) that can only be exchanged for a new pair. Both name their session (`sid`), and
/// a token opens nothing once its session has ended (logout, reuse of a spent refresh token) or its
/// user is erased: `isLive` reads the session's stream, and `forget` drops what was cached for it.
/// The refresh token also names itself (`jti`), for rotation; `auth_time` is when the user last
/// signed in (not refreshed), for actions that need a recent sign-in.
public struct NuvieTokens: Sendable {
    public static let accessLifetime: TimeInterval = 24 * 3600
    public static let refreshLifetime = SessionsState.refreshLifetime

    struct Claims: JWTPayload {
        enum Use: String, Codable { case access, refresh }
        var sub: SubjectClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var use: Use
        var sid: UUID
        var jti: UUID?
        var authTime: Int64
        /// Absent from tokens issued before it was set; another backend's opens nothing here.
        var iss: IssuerClaim?
        var nbf: NotBeforeClaim?
        static let issuer = "nuvie"

        enum CodingKeys: String, CodingKey {
            case sub, iat, exp, use, sid, jti, iss, nbf
            case authTime = "auth_time"
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
            try nbf?.verifyNotBefore()
            guard iss.map({ $0.value == Self.issuer }) ?? true else {
                throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "not a Nuvie token")
            }
        }
    }

    public struct Pair: Sendable {
        public var accessToken: String
        public var refreshToken: String
    }

    /// What a valid token says: whose, which session, and when they last signed in.
    public struct Grant: Sendable, Equatable {
        public var userId: Int64
        public var sessionId: UUID
        public var authenticatedAt: Date
        /// The refresh token's own id (nil in an access token).
        public var tokenId: UUID?
    }

    private let keys: JWTKeyCollection
    private let verified = VerifiedTokens()
    private let header = JWTHeaderCheck.algorithm("HS256")
    /// Whether a session may still open anything (its user registered, not erased; it not ended).
    private let isLive: @Sendable (_ userId: Int64, _ sessionId: UUID) async throws -> Bool

    public init(secret: String, isLive: @escaping @Sendable (_ userId: Int64, _ sessionId: UUID) async throws -> Bool) async {
        keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.isLive = isLive
    }

    /// Sessions read from their streams; a past state served read-only records none, so there a
    /// token needs only a registered user. On a node of a shared log, a session not found is looked
    /// for again once the node holds the log as it is now (`ReadYourWrites.holds`): one begun through
    /// another node a moment ago.
    public init(secret: String, sessions commands: NuvieCommandService, readOnly: Bool, readYourWrites: ReadYourWrites) async {
        await self.init(secret: secret) { userId, sessionId in
            try await readYourWrites.holds {
                try readOnly ? commands.userExists(userId) : commands.sessionIsLive(userId: userId, sessionId: sessionId)
            }
        }
    }

    /// A pair for `refreshTokenId` of session `sessionId`, signed in at `authenticatedAt`.
    public func issue(
        for userId: Int64, sessionId: UUID, refreshTokenId: UUID, authenticatedAt: Date, now: Date = Date()
    ) async throws -> Pair {
        let authTime = Int64(authenticatedAt.timeIntervalSince1970)
        return Pair(
            accessToken: try await keys.sign(Claims(
                sub: .init(value: "\(userId)"), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(Self.accessLifetime)),
                use: .access, sid: sessionId, jti: nil, authTime: authTime, iss: .init(value: Claims.issuer)
            )),
            refreshToken: try await keys.sign(Claims(
                sub: .init(value: "\(userId)"), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(Self.refreshLifetime)),
                use: .refresh, sid: sessionId, jti: refreshTokenId, authTime: authTime, iss: .init(value: Claims.issuer)
            ))
        )
    }

    /// The grant of a valid, unexpired access token of a live session; nil otherwise.
    public func grant(fromAccessToken token: String) async throws -> Grant? {
        let now = Date()
        if let known = verified.grant(token, now: now) { return known }
        let forgotten = verified.forgotten
        guard let (grant, expiresAt) = try await verify(token, use: .access) else { return nil }
        verified.remember(token, grant: grant, expiresAt: expiresAt, checkedAt: now, verifiedBefore: forgotten)
        return grant
    }

    /// The grant of a valid, unexpired refresh token of a live session (spent or not: the session's
    /// stream tells); nil otherwise.
    public func grant(fromRefreshToken token: String) async throws -> Grant? {
        try await verify(token, use: .refresh)?.grant
    }

    /// Drops cached grants of `userId` (of one session, or all), after their session ended or the
    /// user was erased: the next request checks the stream again.
    public func forget(userId: Int64, sessionId: UUID? = nil) {
        verified.forget { $0.userId == userId && (sessionId == nil || $0.sessionId == sessionId) }
    }

    private func verify(_ token: String, use: Claims.Use) async throws -> (grant: Grant, expiresAt: Date)? {
        guard header.accepts(token), let claims = try? await keys.verify(token, as: Claims.self), claims.use == use,
              let userId = Int64(claims.sub.value), try await isLive(userId, claims.sid)
        else { return nil }
        let grant = Grant(
            userId: userId, sessionId: claims.sid, authenticatedAt: Date(timeIntervalSince1970: TimeInterval(claims.authTime)), tokenId: claims.jti
        )
        return (grant, claims.exp.value)
    }
}

/// Access tokens already verified, until they expire or their session ends: a signed-in client sends
/// the same token with every request, and checking its signature, claims and session each time is a
/// good part of a cheap request. A session ended through another node of a shared log is not
/// `forget`'s here, so each token's session is checked again once a `recheckAfter`.
private final class VerifiedTokens: Sendable {
    static let capacity = 10_000
    static let recheckAfter: TimeInterval = 1
    private let tokens = NIOLockedValueBox<(byToken: [String: (grant: NuvieTokens.Grant, expiresAt: Date, checkedAt: Date)], forgotten: UInt64)>(([:], 0))

    /// Counts `forget`s, so a token verified before one is not remembered after it: its session may
    /// have ended between the check and the remembering.
    var forgotten: UInt64 { tokens.withLockedValue { $0.forgotten } }

    func grant(_ token: String, now: Date) -> NuvieTokens.Grant? {
        tokens.withLockedValue { tokens in
            guard let known = tokens.byToken[token] else { return nil }
            guard known.expiresAt > now else {
                tokens.byToken[token] = nil
                return nil
            }
            return now.timeIntervalSince(known.checkedAt) < Self.recheckAfter ? known.grant : nil
        }
    }

    func remember(_ token: String, grant: NuvieTokens.Grant, expiresAt: Date, checkedAt: Date, verifiedBefore forgotten: UInt64) {
        tokens.withLockedValue { tokens in
            guard tokens.forgotten == forgotten else { return }
            if tokens.byToken.count >= Self.capacity { tokens.byToken.removeAll(keepingCapacity: true) }
            tokens.byToken[token] = (grant, expiresAt, checkedAt)
        }
    }

    func forget(where matches: (NuvieTokens.Grant) -> Bool) {
        tokens.withLockedValue { tokens in
            tokens.forgotten += 1
            tokens.byToken = tokens.byToken.filter { !matches($0.value.grant) }
        }
    }
}
