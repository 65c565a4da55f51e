import EventSourcing

/// Where a user's sign-in comes from.
public enum IdentityProvider: String, Codable, Sendable {
    case apple
    /// Sign-in by name, for development and the demo only.
    case dev
}

public struct SavryIdentity: Hashable, Sendable {
    public var provider: IdentityProvider
    public var subject: String

    public init(provider: IdentityProvider, subject: String) {
        self.provider = provider
        self.subject = subject
    }

    /// The identity as the engine's registration knows it: the provider's raw value (`apple`, `dev`)
    /// and the subject, whose stream is named by a hash of it.
    public var signInIdentity: SignInIdentity {
        SignInIdentity(provider: provider.rawValue, subject: subject)
    }
}

/// A sign-in identity now belongs to a user. At most one per identity, enforced by its stream; a
/// claim by a user since erased no longer counts (the identity signs in as a new user).
public struct IdentityClaimed: SavryEventPayload {
    public static let typeName = "identity-claimed"
    public static let schemaVersion: UInt16 = 1

    public var provider: IdentityProvider
    /// The identity provider's subject (an Apple user id, a dev name): personal, sealed under the
    /// user's key; nil once they are erased.
    @Personal public var subject: String?
    public var userId: Int64

    public init(identity: SavryIdentity, userId: Int64) {
        provider = identity.provider
        subject = identity.subject
        self.userId = userId
    }

    public var event: SavryEvent { .identityClaimed(self) }
}

/// A new user joined, through the identity they first signed in with.
public struct UserRegistered: SavryEventPayload {
    public static let typeName = "user-registered"
    public static let schemaVersion: UInt16 = 1

    public var userId: Int64
    public var provider: IdentityProvider

    public init(userId: Int64, provider: IdentityProvider) {
        self.userId = userId
        self.provider = provider
    }

    public var event: SavryEvent { .userRegistered(self) }
}

/// What registering a new user records: the identity's claim and the user's first event.
public enum Registration {
    public static func decide(identity: SavryIdentity, userId: Int64) throws(SavryDomainError) -> (IdentityClaimed, UserRegistered) {
        guard !identity.subject.isEmpty, identity.subject.utf8.count <= 255 else {
            throw .invalid(field: "subject", reason: "must be 1–255 bytes")
        }
        return (IdentityClaimed(identity: identity, userId: userId), UserRegistered(userId: userId, provider: identity.provider))
    }
}
