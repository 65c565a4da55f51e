/// The assistant when no model is configured: it says so plainly, and its replies are recorded as
/// the `offline` provider's, so nobody mistakes them for a model's.
public struct OfflineAssistant: Assistant {
    public let provider = "offline"
    public let model = "none"

    public init() {}

    public func answer(_ conversation: [ChatTurn]) async throws(AssistantFailure) -> AssistantAnswer {
        AssistantAnswer(content: Self.reply, model: model)
    }

    public static let reply = """
        No assistant model is configured on this server, so this is not an answer: your message is saved. \
        An operator can point the server at an OpenAI-compatible API (CHAT_OPENAI_BASE_URL, CHAT_OPENAI_MODEL).
        """
}
