import AppleSignIn
import Foundation
import JWTKit
import ReadModels
import SavryCommands
import SavryProjections

/// Issues and checks the backend's bearer tokens: HS256 JWTs whose subject is the user id, valid
/// for 30 days. The contract has no refresh: a client signs in again when its token expires.
public struct SavryTokens: Sendable {
    public static let lifetime: TimeInterval = 30 * 24 * 3600

    struct Claims: JWTPayload {
        static let issuer = "savry"
        var sub: SubjectClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        /// What signing out names; absent from tokens issued before sign-out existed.
        var jti: IDClaim?
        /// Absent from tokens issued before it was set.
        var iss: IssuerClaim?
        var nbf: NotBeforeClaim?
        /// Never in a Savry token: another backend's (Nuvie's access or refresh token), signed with
        /// the same secret by an operator who gave both one, opens nothing here.
        var use: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
            try nbf?.verifyNotBefore()
            guard use == nil, iss.map({ $0.value == Self.issuer }) ?? true else {
                throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "not a Savry token")
            }
        }
    }

    private let keys: JWTKeyCollection
    private let header = JWTHeaderCheck.algorithm("HS256")
    /// Whether a user id is registered and not erased: a correctly signed token for anyone else
    /// opens nothing, so an erased user's tokens stop working at once.
    private let isActive: @Sendable (Int64) async throws -> Bool
    /// Whether the user signed out of the token with this id.
    private let isSignedOut: @Sendable (_ userId: Int64, _ tokenId: String) throws -> Bool

    public init(
        secret: String, isActive: @escaping @Sendable (Int64) async throws -> Bool,
        isSignedOut: @escaping @Sendable (_ userId: Int64, _ tokenId: String) throws -> Bool
    ) async {
        keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.isActive = isActive
        self.isSignedOut = isSignedOut
    }

    /// Users read from their streams, sign-outs from their read model. On a node of a shared log, a
    /// user not found is looked for again once the node holds the log as it is now
    /// (`ReadYourWrites.holds`): one registered through another node a moment ago.
    public init(secret: String, users commands: SavryCommandService, signedOut: SignedOutTokens, readYourWrites: ReadYourWrites) async {
        await self.init(
            secret: secret, isActive: { userId in try await readYourWrites.holds { try commands.isActive(userId) } }, isSignedOut: signedOut.contains
        )
    }

    public func issue(for userId: Int64, now: Date = Date()) async throws -> String {
        try await keys.sign(Claims(
            sub: .init(value: "\(userId)"), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(Self.lifetime)),
            jti: .init(value: UUID().uuidString), iss: .init(value: Claims.issuer)
        ))
    }

    /// A valid token of an active user: who, which token (its `jti`, or `iat-<seconds>` for a token
    /// from before tokens had one), and when it expires (epoch seconds).
    public struct Grant: Sendable, Equatable {
        public var userId: Int64
        public var tokenId: String
        public var expiresAt: Int64
    }

    /// The grant of a valid, unexpired token its active user has not signed out of; nil for any
    /// other token (an erased user's too).
    public func grant(from token: String) async throws -> Grant? {
        // A signed instant no whole second can hold is refused, not converted.
        guard header.accepts(token), let claims = try? await keys.verify(token, as: Claims.self),
              let userId = Int64(claims.sub.value), let issuedAt = Self.epochSeconds(claims.iat.value),
              let expiresAt = Self.epochSeconds(claims.exp.value), try await isActive(userId)
        else { return nil }
        let tokenId = claims.jti?.value ?? "iat-\(issuedAt)"
        guard try !isSignedOut(userId, tokenId) else { return nil }
        return Grant(userId: userId, tokenId: tokenId, expiresAt: expiresAt)
    }

    private static func epochSeconds(_ date: Date) -> Int64? {
        Int64(exactly: date.timeIntervalSince1970.rounded(.down))
    }
}
