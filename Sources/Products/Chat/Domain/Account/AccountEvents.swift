import EventSourcing

/// An email address now belongs to a user: at most one user per address (compared lowercased),
/// enforced by the address's identity stream. A claim by a user since erased no longer counts.
public struct EmailClaimed: EventPayload {
    public static let typeName = "email-claimed"
    public static let schemaVersion: UInt16 = 1

    /// Lowercased; personal, nil once the user is erased.
    @Personal public var email: String?
    public var userId: Int64

    public init(email: String, userId: Int64) {
        self.email = email
        self.userId = userId
    }
}

/// The names a user gave, as Django's user model has them.
public struct ChatProfile: Codable, Sendable, Hashable {
    public var username: String
    public var firstName: String
    public var lastName: String

    public init(username: String, firstName: String, lastName: String) {
        self.username = username
        self.firstName = firstName
        self.lastName = lastName
    }
}

/// A new account: signed up, or imported from the Django app with its password hash and join date.
public struct UserRegistered: EventPayload {
    public static let typeName = "user-registered"
    public static let schemaVersion: UInt16 = 1

    public var userId: Int64
    @Personal public var email: String?
    @PersonalValue public var profile: ChatProfile?
    /// Django's `pbkdf2_sha256$<iterations>$<salt>$<hash>`: never the password. Personal, so it goes
    /// with the erasure too.
    @Personal public var passwordHash: String?
    /// When the Django app says they joined (epoch microseconds), for an imported account; nil: when
    /// this event was recorded.
    public var importedDateJoined: Int64?

    public init(userId: Int64, email: String, profile: ChatProfile, passwordHash: String, importedDateJoined: Int64? = nil) {
        self.userId = userId
        self.email = email
        self.profile = profile
        self.passwordHash = passwordHash
        self.importedDateJoined = importedDateJoined
    }
}

/// A user's password hash replaced by a stronger one of the same password, at a login that proved
/// it: an account imported from the Django app keeps its hash's iteration count until then.
public struct PasswordRehashed: EventPayload {
    public static let typeName = "password-rehashed"
    public static let schemaVersion: UInt16 = 1

    public var userId: Int64
    /// As `UserRegistered.passwordHash`: personal, never the password.
    @Personal public var passwordHash: String?

    public init(userId: Int64, passwordHash: String) {
        self.userId = userId
        self.passwordHash = passwordHash
    }
}

/// A user logged in (or signed up) and was given an API token. Only the token's SHA-256 is
/// recorded: the token itself is shown once, in the response, and is nowhere at rest.
public struct TokenIssued: EventPayload {
    public static let typeName = "token-issued"
    public static let schemaVersion: UInt16 = 1

    public var userId: Int64
    public var tokenHash: String

    public init(userId: Int64, tokenHash: String) {
        self.userId = userId
        self.tokenHash = tokenHash
    }
}

/// A token was revoked (`POST /api/logout/`): it opens nothing from now on.
public struct TokenRevoked: EventPayload {
    public static let typeName = "token-revoked"
    public static let schemaVersion: UInt16 = 1

    public var userId: Int64
    public var tokenHash: String

    public init(userId: Int64, tokenHash: String) {
        self.userId = userId
        self.tokenHash = tokenHash
    }
}
