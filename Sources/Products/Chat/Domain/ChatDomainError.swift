import EventSourcing

/// A command the chat product refuses, in its own terms. The API maps each to a response.
public enum ChatDomainError: DecisionRefusal, Equatable, Sendable {
    /// No such session, or it is another user's: the same answer, so ids reveal nothing.
    case sessionNotFound(sessionId: Int64)
    case userNotFound(userId: Int64)
    case emailTaken
    case invalid(field: String, reason: String)
}
