import EventSourcing

/// A session's stream folded: whose it is and its conversation so far (what the assistant is sent as
/// history).
public struct SessionState: EventFold, Equatable {
    public typealias Event = ChatEvent

    public struct Turn: Sendable, Equatable {
        public enum Role: String, Sendable { case user, assistant }
        public var role: Role
        public var messageId: String
        public var content: String
        public var attachments: [Attachment]
    }

    public private(set) var owner: Int64?
    public private(set) var turns: [Turn] = []
    /// Its owner was erased: it is gone from every read, and nothing can be added to it.
    public private(set) var isErased = false
    /// Every turn's text and attachments, counted as each is folded: a long conversation is a
    /// heavy state to keep, and counting it again at every decision would cost its length.
    public private(set) var retainedBytes = MemoryLayout<SessionState>.size

    public init() {}

    public mutating func evolve(_ event: ChatEvent) {
        switch event {
        case .sessionStarted(let e):
            owner = e.userId
            isErased = e.title == nil
        case .userMessageSent(let e):
            guard let content = e.content else { isErased = true; return }
            append(Turn(role: .user, messageId: e.messageId, content: content, attachments: e.attachments ?? []))
        case .assistantReplied(let e):
            guard let content = e.content else { isErased = true; return }
            append(Turn(role: .assistant, messageId: e.messageId, content: content, attachments: []))
        case .identityClaimed, .userRegistered, .passwordRehashed, .tokenIssued, .tokenRevoked, .sessionRenamed, .assistantFailed, .userErased:
            break
        }
    }

    private mutating func append(_ turn: Turn) {
        turns.append(turn)
        retainedBytes += MemoryLayout<Turn>.size + heapBytes(of: CollectionOfOne(turn.content)) + heapBytes(of: CollectionOfOne(turn.messageId))
            + turn.attachments.reduce(0) { $0 + MemoryLayout<Attachment>.size + heapBytes(of: [$1.sha256, $1.name, $1.contentType]) }
    }

    /// Whether `userId` may read and write this session: it exists, is theirs, and was not erased.
    public func isOpen(to userId: Int64) -> Bool {
        owner == userId && !isErased
    }
}
