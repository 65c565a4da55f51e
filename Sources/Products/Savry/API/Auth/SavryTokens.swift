import AppleSignIn
import Foundation
import JWTKit

/// Issues and checks the backend's bearer tokens: HS256 JWTs whose subject is the user id, valid
/// for 30 days. The contract has no refresh: a client signs in again when its token expires.
public struct SavryTokens: Sendable {
    public static let lifetime: TimeInterval = 30 * 24 * 3600

    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    private let keys: JWTKeyCollection
    private let header = JWTHeaderCheck.algorithm("HS256")
    /// Whether a user id is registered and not erased: a correctly signed token for anyone else
    /// opens nothing, so an erased user's tokens stop working at once.
    private let isActive: @Sendable (Int64) throws -> Bool

    public init(secret: String, isActive: @escaping @Sendable (Int64) throws -> Bool) async {
        keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.isActive = isActive
    }

    public func issue(for userId: Int64, now: Date = Date()) async throws -> String {
        try await keys.sign(Claims(sub: .init(value: "\(userId)"), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(Self.lifetime))))
    }

    /// The active user of a valid, unexpired token; nil for any other token (an erased user's too).
    public func userId(from token: String) async throws -> Int64? {
        guard header.accepts(token), let claims = try? await keys.verify(token, as: Claims.self),
              let userId = Int64(claims.sub.value), try isActive(userId)
        else { return nil }
        return userId
    }
}
