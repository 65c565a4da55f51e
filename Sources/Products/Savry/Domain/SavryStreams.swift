/// Stream ids. A stream is the consistency boundary a decision is checked against.
public enum SavryStreams {
    public static let userPrefix = "user-"
    /// One stream per sign-in identity makes "one user per identity" an expected-version check.
    public static func identity(_ identity: SavryIdentity) -> String { "identity-\(identity.provider.rawValue)-\(identity.subject)" }
    /// One stream per recipe holds its creation, every change and its deletion.
    public static func recipe(_ recipeId: String) -> String { "recipe-\(recipeId)" }
}
