import EventSourcing

/// A user signed out of one device: the token that device held opens nothing from now on.
/// `tokenId` is the token's `jti`, or `iat-<seconds>` for a token issued before tokens had one;
/// `expiresAt` (epoch seconds) is when it would have expired anyway, after which nobody keeps it.
public struct SignedOut: SavryEventPayload {
    public static let typeName = "signed-out"
    public static let schemaVersion: UInt16 = 1

    public var userId: Int64
    public var tokenId: String
    public var expiresAt: Int64

    public init(userId: Int64, tokenId: String, expiresAt: Int64) {
        self.userId = userId
        self.tokenId = tokenId
        self.expiresAt = expiresAt
    }

    public var event: SavryEvent { .signedOut(self) }
}
