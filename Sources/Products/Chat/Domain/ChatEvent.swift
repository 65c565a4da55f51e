import EventSourcing

/// Every fact the chat product records. Projections and decisions switch over this; `ChatCatalog`
/// maps it to and from the log.
public enum ChatEvent: Sendable, Equatable {
    case identityClaimed(EmailClaimed)
    case userRegistered(UserRegistered)
    case passwordRehashed(PasswordRehashed)
    case tokenIssued(TokenIssued)
    case tokenRevoked(TokenRevoked)
    case sessionStarted(SessionStarted)
    case sessionRenamed(SessionRenamed)
    case userMessageSent(UserMessageSent)
    case assistantReplied(AssistantReplied)
    case assistantFailed(AssistantFailed)
    /// The engine's erasure event, registered as the chat product's own.
    case userErased(UserErased)

    /// The fact itself, whichever it is: what the catalog writes.
    public var payload: any EventPayload {
        switch self {
        case .identityClaimed(let e): e
        case .userRegistered(let e): e
        case .passwordRehashed(let e): e
        case .tokenIssued(let e): e
        case .tokenRevoked(let e): e
        case .sessionStarted(let e): e
        case .sessionRenamed(let e): e
        case .userMessageSent(let e): e
        case .assistantReplied(let e): e
        case .assistantFailed(let e): e
        case .userErased(let e): e
        }
    }

    /// The user whose action (or whose conversation) this is, whose data key seals the event's
    /// personal fields: an assistant's reply is sealed under the key of the user it answers, so an
    /// erasure takes it too. An erasure an operator made is nobody's action (`subjectUserIds`).
    public var actorUserId: Int64? {
        switch self {
        case .identityClaimed(let e): e.userId
        case .userRegistered(let e): e.userId
        case .passwordRehashed(let e): e.userId
        case .tokenIssued(let e): e.userId
        case .tokenRevoked(let e): e.userId
        case .sessionStarted(let e): e.userId
        case .sessionRenamed(let e): e.userId
        case .userMessageSent(let e): e.userId
        case .assistantReplied(let e): e.userId
        case .assistantFailed(let e): e.userId
        case .userErased(let e): e.initiator == .user ? e.userId : nil
        }
    }

    public var subjectUserIds: [Int64] {
        switch self {
        case .userErased(let e) where e.initiator != .user: [e.userId]
        case .identityClaimed, .userRegistered, .passwordRehashed, .tokenIssued, .tokenRevoked, .sessionStarted, .sessionRenamed, .userMessageSent,
             .assistantReplied, .assistantFailed, .userErased: []
        }
    }
}
