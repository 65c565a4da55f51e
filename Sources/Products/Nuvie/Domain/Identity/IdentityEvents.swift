import EventSourcing
/// Where a user's sign-in comes from.
public enum IdentityProvider: String, Codable, Sendable {
    case apple
    /// Demo-mode sign-in by identifier, for development only.
    case dev
    /// The users imported with the MovieLens demo data.
    case movielens
}

public struct Identity: Hashable, Sendable {
    public var provider: IdentityProvider
    public var subject: String

    public init(provider: IdentityProvider, subject: String) {
        self.provider = provider
        self.subject = subject
    }

    public var signIn: SignInIdentity { SignInIdentity(provider: provider.rawValue, subject: subject) }
}

/// A sign-in identity now belongs to a user. At most one per identity, enforced by its stream.
public struct IdentityClaimed: NuvieEventPayload {
    public static let typeName = "identity-claimed"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var provider: IdentityProvider
    /// The identity provider's id for the user: personal, and nil once they are erased.
    @Personal public var subject: String?
    public var userId: Int64

    public init(identity: Identity, userId: Int64) {
        self.provider = identity.provider
        self.subject = identity.subject
        self.userId = userId
    }
}

/// A new user joined.
public struct UserRegistered: NuvieEventPayload {
    public static let typeName = "user-registered"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var userId: Int64
    /// Personal, as `email` and `avatarUrl`: nil once the user is erased.
    @Personal public var name: String?
    @Personal public var email: String?
    @Personal public var avatarUrl: String?
    public var provider: IdentityProvider

    public init(userId: Int64, name: String, email: String?, avatarUrl: String?, provider: IdentityProvider) {
        self.userId = userId
        self.name = name
        self.email = email
        self.avatarUrl = avatarUrl
        self.provider = provider
    }
}

/// The engine's erasure event in Nuvie's terms: the user did it, or an operator did it to them.
extension UserErased: NuvieEventPayload {
    public var actorUserId: Int64? { initiator == .user ? userId : nil }
    public var subjectUserIds: [Int64] { initiator == .user ? [] : [userId] }
}
