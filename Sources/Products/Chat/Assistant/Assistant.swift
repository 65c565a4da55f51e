/// One message of a conversation as a chat-completions API takes it.
public struct ChatTurn: Sendable, Equatable, Codable {
    public enum Role: String, Sendable, Codable { case system, user, assistant }
    public var role: Role
    public var content: String

    public init(role: Role, content: String) {
        self.role = role
        self.content = content
    }
}

/// What a model answered, and what it counted.
public struct AssistantAnswer: Sendable, Equatable {
    public var content: String
    /// The model that answered, as it named itself (or as configured when it did not say).
    public var model: String
    public var promptTokens: Int?
    public var completionTokens: Int?

    public init(content: String, model: String, promptTokens: Int? = nil, completionTokens: Int? = nil) {
        self.content = content
        self.model = model
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
    }
}

/// Why a model gave no answer, in an operator's terms (no user content).
public enum AssistantFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case timedOut(seconds: Double)
    case unreachable(String)
    case status(Int)
    case malformed(String)
    case tooLong(bytes: Int)

    public var isTimeout: Bool {
        if case .timedOut = self { true } else { false }
    }

    public var description: String {
        switch self {
        case .timedOut(let seconds): "gave no answer within \(seconds) s"
        case .unreachable(let reason): "was unreachable: \(reason)"
        case .status(let code): "answered HTTP \(code)"
        case .malformed(let reason): "answered something that is not a chat completion: \(reason)"
        case .tooLong(let bytes): "answered more than \(bytes) bytes"
        }
    }
}

/// Whatever writes the assistant's replies.
public protocol Assistant: Sendable {
    /// `openai-compatible`, `offline`: recorded with every reply.
    var provider: String { get }
    var model: String { get }
    func answer(_ conversation: [ChatTurn]) async throws(AssistantFailure) -> AssistantAnswer
}
