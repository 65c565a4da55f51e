/// The system prompt each tone is answered in. A tone with no prompt of its own gets `fallback`.
public struct TonePrompts: Sendable, Equatable {
    public var prompts: [String: String]
    public var fallback: String

    public init(prompts: [String: String], fallback: String) {
        self.prompts = prompts
        self.fallback = fallback
    }

    public func prompt(for tone: String, language: String) -> String {
        "\(prompts[tone] ?? fallback) Answer in the language of the tag \(language) unless the user writes in another."
    }

    public static let standard = TonePrompts(
        prompts: [
            "plain_clinical": "You are a careful health information assistant. Answer plainly and precisely, in clinical terms explained simply. You do not diagnose; say when to see a clinician.",
            "caregiver": "You are a warm assistant for people caring for someone who is ill. Be practical and kind, and keep answers short. You do not diagnose; say when to see a clinician.",
            "faith": "You are a gentle assistant who answers with respect for the user's faith, offering comfort alongside accurate health information. You do not diagnose; say when to see a clinician.",
        ],
        fallback: "You are a helpful, accurate assistant. You do not diagnose; say when to see a clinician."
    )
}
