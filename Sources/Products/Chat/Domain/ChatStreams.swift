/// Stream ids. A stream is the consistency boundary a decision is checked against.
public enum ChatStreams {
    public static let userPrefix = "user-"
    /// A user's own stream: their registration, the tokens they were issued and revoked, their erasure.
    public static func user(_ userId: Int64) -> String { "\(userPrefix)\(userId)" }
    public static let sessionPrefix = "session-"
    /// One stream per conversation: its start, renames, every message and every reply.
    public static func session(_ sessionId: Int64) -> String { "\(sessionPrefix)\(sessionId)" }
}
