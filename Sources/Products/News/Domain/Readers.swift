import EventSourcing

/// The contract names News' users by an `X-User-ID` the client sends. The first time one sets
/// preferences it becomes a reader: a numbered user of the engine's, with a data key that seals
/// what they write and an erasure that destroys it. The id itself is the identity's subject, so it
/// is sealed too, and the identity's stream is named by a hash of it (`SignInIdentity`).
public enum Readers {
    public static func identity(_ xUserId: String) -> SignInIdentity {
        SignInIdentity(provider: "x-user-id", subject: xUserId)
    }
}

/// An `X-User-ID` now names this reader. At most one per id, enforced by its stream; a claim by a
/// reader since erased no longer counts (the id becomes a new reader).
public struct ReaderClaimed: EventPayload {
    public static let typeName = "reader-claimed"
    public static let schemaVersion: UInt16 = 1

    /// The `X-User-ID`: sealed under the reader's key; nil once they are erased.
    @Personal public var subject: String?
    public var userId: Int64

    public init(subject: String?, userId: Int64) {
        self.subject = subject
        self.userId = userId
    }
}

/// A new reader: the first event of their stream.
public struct ReaderRegistered: EventPayload {
    public static let typeName = "reader-registered"
    public static let schemaVersion: UInt16 = 1

    public var userId: Int64

    public init(userId: Int64) {
        self.userId = userId
    }
}

/// A reader's preferences as they now are, whole: what `PUT /v1/preferences` set. The holdings
/// (tickers, and the reader's own words in `label` and `notes`) are sealed under their key; nil
/// once they are erased.
public struct PreferencesSet: EventPayload {
    public static let typeName = "preferences-set"
    public static let schemaVersion: UInt16 = 1

    public var userId: Int64
    public var focusProfile: FocusProfile
    @PersonalValue public var holdings: [Holding]?

    public init(userId: Int64, focusProfile: FocusProfile, holdings: [Holding]?) {
        self.userId = userId
        self.focusProfile = focusProfile
        self.holdings = holdings
    }
}
