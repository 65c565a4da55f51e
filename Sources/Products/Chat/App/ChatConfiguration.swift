import ChatAssistant
import ChatAPI
import ChatCommands
import Foundation
import HTTPServing
import ProductHosting

/// Everything the chat server needs to start, as plain values. The `chat` executable builds it from
/// flags and the `CHAT_*` environment; tests build it directly.
public struct ChatConfiguration: PastStateConfiguration {
    public var serving: ServingSettings
    /// The OpenAI-compatible API replies come from; nil: the offline responder.
    public var assistant: OpenAICompatibleAssistant.Settings?
    public var tonePrompts = TonePrompts.standard
    /// What the conversation sent to the model may take, system prompt included.
    public var contextTokens = 6_000
    /// PBKDF2 iterations of new password hashes.
    public var passwordIterations = DjangoPassword.owaspIterations
    /// Per user (per address on login and signup); nil turns it off.
    public var rateLimit: RateLimit? = RateLimit.perPerson
    public var loginThrottle = LoginThrottleLimits.standard

    public init(dataDirectory: URL) {
        serving = ServingSettings(dataDirectory: dataDirectory, port: 8000)
    }

    /// The rest of the configuration from the environment, every value checked (`InvalidSetting`).
    public mutating func apply(_ settings: EnvironmentSettings) throws {
        // Every CHAT_OPENAI_* value is checked whether or not a base URL is set: one set without it
        // would otherwise be ignored in silence.
        let temperature = try settings.text("CHAT_OPENAI_TEMPERATURE").map { raw in
            guard let value = Double(raw), (0...2).contains(value) else {
                throw InvalidSetting(name: "CHAT_OPENAI_TEMPERATURE", value: raw, expected: "a number from 0 to 2")
            }
            return value
        }
        let timeout = try settings.integer("CHAT_OPENAI_TIMEOUT_SECONDS", in: 1...600)
        let apiKey = try settings.secret("CHAT_OPENAI_API_KEY"), model = settings.text("CHAT_OPENAI_MODEL")
        if let baseURL = try settings.httpURL("CHAT_OPENAI_BASE_URL") {
            assistant = OpenAICompatibleAssistant.Settings(
                baseURL: baseURL, apiKey: apiKey, model: model ?? "gpt-4o", temperature: temperature ?? 0.5, timeout: .seconds(timeout ?? 60)
            )
        } else if let named = [("CHAT_OPENAI_TEMPERATURE", temperature != nil), ("CHAT_OPENAI_TIMEOUT_SECONDS", timeout != nil),
                               ("CHAT_OPENAI_API_KEY", apiKey != nil), ("CHAT_OPENAI_MODEL", model != nil)].first(where: \.1)?.0 {
            throw InvalidSetting(name: "CHAT_OPENAI_BASE_URL", value: "", expected: "the model server's URL, since \(named) is set")
        }
        if let path = settings.text("CHAT_TONE_PROMPTS_FILE") {
            guard let data = FileManager.default.contents(atPath: path), let prompts = try? JSONDecoder().decode([String: String].self, from: data) else {
                throw InvalidSetting(name: "CHAT_TONE_PROMPTS_FILE", value: path, expected: #"a readable JSON object {"<snake_case tone>": "<system prompt>"}"#)
            }
            tonePrompts.prompts.merge(prompts) { _, configured in configured }
        }
        contextTokens = try settings.integer("CHAT_CONTEXT_TOKENS", in: 256...1_000_000) ?? contextTokens
        passwordIterations = try settings.integer("CHAT_PASSWORD_ITERATIONS", in: 100_000...10_000_000) ?? passwordIterations
        loginThrottle.perAccount = try settings.integer("CHAT_LOGIN_FAILURES_PER_ACCOUNT", in: 1...1_000) ?? loginThrottle.perAccount
        loginThrottle.perAddress = try settings.integer("CHAT_LOGIN_FAILURES_PER_ADDRESS", in: 1...100_000) ?? loginThrottle.perAddress
        rateLimit = try RateLimit(settings, prefix: "CHAT", default: rateLimit ?? .perPerson)
    }
}
