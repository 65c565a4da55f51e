import AppleSignIn
import Foundation
import JWTKit
import Synchronization

/// Issues and checks the backend's own tokens: HS256 JWTs, an access token (24 h) and a refresh
/// token (30 days) that can only be exchanged for a new pair.
public struct TokenService: Sendable {
    public static let accessLifetime: TimeInterval = 24 * 3600
    public static let refreshLifetime: TimeInterval = 30 * 24 * 3600

    struct Claims: JWTPayload {
        enum Use: String, Codable { case access, refresh }
        var sub: SubjectClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var use: Use

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    public struct Pair: Sendable {
        public var accessToken: String
        public var refreshToken: String
    }

    private let keys: JWTKeyCollection
    private let verified = VerifiedTokens()
    private let header = JWTHeaderCheck.algorithm("HS256")
    /// Whether a user id is registered: a correctly signed token for anyone else opens nothing.
    private let isRegistered: @Sendable (Int64) throws -> Bool

    public init(secret: String, isRegistered: @escaping @Sendable (Int64) throws -> Bool) async {
        keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.isRegistered = isRegistered
    }

    public func issue(for userId: Int64, now: Date = Date()) async throws -> Pair {
        Pair(
            accessToken: try await sign(userId, .access, now: now, lifetime: Self.accessLifetime),
            refreshToken: try await sign(userId, .refresh, now: now, lifetime: Self.refreshLifetime)
        )
    }

    /// The registered user of a valid, unexpired access token; nil otherwise.
    public func userId(fromAccessToken token: String) async throws -> Int64? {
        if let known = verified.userId(token, now: Date()) { return known }
        guard let claims = try await claims(from: token, use: .access), let userId = Int64(claims.sub.value) else { return nil }
        verified.remember(token, userId: userId, expiresAt: claims.exp.value)
        return userId
    }

    public func userId(fromRefreshToken token: String) async throws -> Int64? {
        try await claims(from: token, use: .refresh).flatMap { Int64($0.sub.value) }
    }

    private func sign(_ userId: Int64, _ use: Claims.Use, now: Date, lifetime: TimeInterval) async throws -> String {
        let claims = Claims(sub: .init(value: "\(userId)"), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(lifetime)), use: use)
        return try await keys.sign(claims)
    }

    private func claims(from token: String, use: Claims.Use) async throws -> Claims? {
        guard header.accepts(token), let claims = try? await keys.verify(token, as: Claims.self), claims.use == use,
              let userId = Int64(claims.sub.value), try isRegistered(userId)
        else { return nil }
        return claims
    }
}

/// Access tokens already verified, until they expire: a signed-in client sends the same token with
/// every request, and checking its signature and claims each time is a good part of a cheap request.
private final class VerifiedTokens: Sendable {
    static let capacity = 10_000
    private let tokens = Mutex<[String: (userId: Int64, expiresAt: Date)]>([:])

    func userId(_ token: String, now: Date) -> Int64? {
        tokens.withLock { tokens in
            guard let known = tokens[token] else { return nil }
            guard known.expiresAt > now else {
                tokens[token] = nil
                return nil
            }
            return known.userId
        }
    }

    func remember(_ token: String, userId: Int64, expiresAt: Date) {
        tokens.withLock { tokens in
            if tokens.count >= Self.capacity { tokens.removeAll(keepingCapacity: true) }
            tokens[token] = (userId, expiresAt)
        }
    }
}
