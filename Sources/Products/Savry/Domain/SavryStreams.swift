/// Stream ids. A stream is the consistency boundary a decision is checked against.
public enum SavryStreams {
    public static let userPrefix = "user-"
    /// A user's own stream: their registration and their erasure.
    public static func user(_ userId: Int64) -> String { "\(userPrefix)\(userId)" }
    /// One stream per recipe holds its creation, every change and its deletion.
    public static func recipe(_ recipeId: String) -> String { "recipe-\(recipeId)" }
}
