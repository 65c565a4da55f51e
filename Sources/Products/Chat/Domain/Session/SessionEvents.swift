import EventSourcing

/// A user started a conversation: `POST /api/chat/sessions/new/`, or a first message sent without a
/// session. Session ids are numbers, as the Django app's are, never reused.
public struct SessionStarted: EventPayload {
    public static let typeName = "session-started"
    public static let schemaVersion: UInt16 = 1

    public var sessionId: Int64
    public var userId: Int64
    @Personal public var title: String?
    /// snake_case (`plain_clinical`).
    public var tone: String
    public var lang: String

    public init(sessionId: Int64, userId: Int64, title: String, tone: String, lang: String) {
        self.sessionId = sessionId
        self.userId = userId
        self.title = title
        self.tone = tone
        self.lang = lang
    }
}

public struct SessionRenamed: EventPayload {
    public static let typeName = "session-renamed"
    public static let schemaVersion: UInt16 = 1

    public var sessionId: Int64
    public var userId: Int64
    @Personal public var title: String?

    public init(sessionId: Int64, userId: Int64, title: String) {
        self.sessionId = sessionId
        self.userId = userId
        self.title = title
    }
}

/// A file sent with a message, stored sealed under its sender's key (`SealedFiles`) and named here
/// by the SHA-256 of its contents.
public struct Attachment: Codable, Sendable, Hashable {
    public var sha256: String
    public var name: String
    public var contentType: String
    public var size: Int

    public init(sha256: String, name: String, contentType: String, size: Int) {
        self.sha256 = sha256
        self.name = name
        self.contentType = contentType
        self.size = size
    }
}

/// A user's message in a session, with the tone and language it was sent in and its files.
public struct UserMessageSent: EventPayload {
    public static let typeName = "user-message-sent"
    public static let schemaVersion: UInt16 = 1

    public var sessionId: Int64
    public var userId: Int64
    /// `msg_` and 12 hex digits, as the API shows it.
    public var messageId: String
    @Personal public var content: String?
    public var tone: String
    public var lang: String
    /// Personal (file names are the user's words); nil once the user is erased.
    @PersonalValue public var attachments: [Attachment]?

    public init(sessionId: Int64, userId: Int64, messageId: String, content: String, tone: String, lang: String, attachments: [Attachment]) {
        self.sessionId = sessionId
        self.userId = userId
        self.messageId = messageId
        self.content = content
        self.tone = tone
        self.lang = lang
        self.attachments = attachments
    }
}

/// What answered a message, and what it cost: recorded with the reply, so a replay or an `as-of`
/// reads the reply from the log and never asks a model again.
public struct ReplySource: Codable, Sendable, Hashable {
    /// `openai-compatible`, or `offline` when no model is configured.
    public var provider: String
    public var model: String
    public var latencyMilliseconds: Int
    public var promptTokens: Int?
    public var completionTokens: Int?

    public init(provider: String, model: String, latencyMilliseconds: Int, promptTokens: Int?, completionTokens: Int?) {
        self.provider = provider
        self.model = model
        self.latencyMilliseconds = latencyMilliseconds
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
    }
}

/// The assistant's reply to a user's message.
public struct AssistantReplied: EventPayload {
    public static let typeName = "assistant-replied"
    public static let schemaVersion: UInt16 = 1

    public var sessionId: Int64
    /// The user the conversation belongs to: the reply is sealed under their key.
    public var userId: Int64
    public var messageId: String
    public var inReplyTo: String
    @Personal public var content: String?
    public var source: ReplySource

    public init(sessionId: Int64, userId: Int64, messageId: String, inReplyTo: String, content: String, source: ReplySource) {
        self.sessionId = sessionId
        self.userId = userId
        self.messageId = messageId
        self.inReplyTo = inReplyTo
        self.content = content
        self.source = source
    }
}

/// The assistant did not answer a message (timed out, failed, answered nonsense). The message stays
/// recorded; the user may send it again.
public struct AssistantFailed: EventPayload {
    public static let typeName = "assistant-failed"
    public static let schemaVersion: UInt16 = 1

    public var sessionId: Int64
    public var userId: Int64
    public var inReplyTo: String
    public var provider: String
    public var model: String
    public var latencyMilliseconds: Int
    /// What went wrong, in the operator's terms (`timeout after 30 s`, `HTTP 500`): no user content.
    public var failure: String

    public init(sessionId: Int64, userId: Int64, inReplyTo: String, provider: String, model: String, latencyMilliseconds: Int, failure: String) {
        self.sessionId = sessionId
        self.userId = userId
        self.inReplyTo = inReplyTo
        self.provider = provider
        self.model = model
        self.latencyMilliseconds = latencyMilliseconds
        self.failure = failure
    }
}
