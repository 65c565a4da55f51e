/// Stream ids. A stream is the consistency boundary a decision is checked against.
public enum SavryStreams {
    public static let userPrefix = "user-"
    /// A user's own stream: their registration and their erasure.
    public static func user(_ userId: Int64) -> String { "\(userPrefix)\(userId)" }
    /// One stream per sign-in identity makes "one user per identity" an expected-version check. Its
    /// name holds a SHA-256 of the subject, not the subject (`SignInIdentity.stream`): stream names
    /// are not sealed.
    public static func identity(_ identity: SavryIdentity) -> String { identity.signInIdentity.stream }
    /// One stream per recipe holds its creation, every change and its deletion.
    public static func recipe(_ recipeId: String) -> String { "recipe-\(recipeId)" }
}
