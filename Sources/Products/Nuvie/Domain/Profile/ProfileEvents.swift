import EventSourcing
/// A user changed their profile. Carries the whole profile after the change, so a fold needs no
/// earlier event. `favoriteGenres` nil means "not chosen": the app then derives them from ratings.
public struct ProfileUpdated: NuvieEventPayload {
    public static let typeName = "profile-updated"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var userId: Int64
    /// Personal, as `bio` and `avatarUrl`: nil once the user is erased.
    @Personal public var name: String?
    @Personal public var bio: String?
    @Personal public var avatarUrl: String?
    public var favoriteGenres: [String]?

    public init(userId: Int64, name: String?, bio: String?, avatarUrl: String?, favoriteGenres: [String]?) {
        self.userId = userId
        self.name = name
        self.bio = bio
        self.avatarUrl = avatarUrl
        self.favoriteGenres = favoriteGenres
    }
}

/// A user accepted a version of the terms of service and privacy policy.
public struct TermsAccepted: NuvieEventPayload {
    public static let typeName = "terms-accepted"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var userId: Int64
    public var termsVersion: String

    public init(userId: Int64, termsVersion: String) {
        self.userId = userId
        self.termsVersion = termsVersion
    }
}
