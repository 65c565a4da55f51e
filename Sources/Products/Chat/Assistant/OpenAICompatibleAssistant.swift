import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Replies from an OpenAI-compatible chat-completions API (`POST <base>/chat/completions`): OpenAI
/// itself, or a local server such as llama.cpp's. Every failure is an `AssistantFailure`, never a
/// crash or a hang: the whole exchange has a deadline, and an answer larger than
/// `maximumResponseBytes` is refused rather than read.
public struct OpenAICompatibleAssistant: Assistant {
    public struct Settings: Sendable, Equatable {
        /// Up to and including the API version: `https://api.openai.com/v1`, `http://127.0.0.1:8088/v1`.
        public var baseURL: URL
        public var apiKey: String?
        public var model: String
        public var temperature: Double
        public var timeout: Duration
        public var maximumResponseBytes: Int

        public init(baseURL: URL, apiKey: String?, model: String, temperature: Double = 0.5, timeout: Duration = .seconds(60), maximumResponseBytes: Int = 1 << 20) {
            self.baseURL = baseURL
            self.apiKey = apiKey
            self.model = model
            self.temperature = temperature
            self.timeout = timeout
            self.maximumResponseBytes = maximumResponseBytes
        }
    }

    public let provider = "openai-compatible"
    public var model: String { settings.model }
    private let settings: Settings
    private let client: HTTPClient

    public init(settings: Settings, client: HTTPClient = .assistantCalls) {
        self.settings = settings
        self.client = client
    }

    struct Completion: Decodable {
        struct Choice: Decodable {
            struct Message: Decodable { var content: String? }
            var message: Message
        }
        struct Usage: Decodable {
            var prompt_tokens: Int?
            var completion_tokens: Int?
        }
        var model: String?
        var choices: [Choice]
        var usage: Usage?
    }

    struct Body: Encodable {
        var model: String
        var temperature: Double
        var messages: [ChatTurn]
    }

    public func answer(_ conversation: [ChatTurn]) async throws(AssistantFailure) -> AssistantAnswer {
        let data: Data
        do {
            data = try await exchange(conversation)
        } catch let failure as AssistantFailure {
            throw failure
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timedOut(seconds: Double(settings.timeout.components.seconds))
        } catch is NIOTooManyBytesError {
            throw .tooLong(bytes: settings.maximumResponseBytes)
        } catch {
            throw .unreachable(String(describing: error))
        }
        let completion: Completion
        do {
            completion = try JSONDecoder().decode(Completion.self, from: data)
        } catch {
            throw .malformed("its JSON does not decode as a chat completion")
        }
        guard let content = completion.choices.first?.message.content?.trimmingCharacters(in: .whitespacesAndNewlines), !content.isEmpty else {
            throw .malformed("no message content in its first choice")
        }
        return AssistantAnswer(
            content: content, model: completion.model ?? settings.model,
            promptTokens: completion.usage?.prompt_tokens, completionTokens: completion.usage?.completion_tokens
        )
    }

    private func exchange(_ conversation: [ChatTurn]) async throws -> Data {
        var request = HTTPClientRequest(url: settings.baseURL.appendingPathComponent("chat/completions").absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let key = settings.apiKey { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(Body(model: settings.model, temperature: settings.temperature, messages: conversation))))
        let deadline = NIODeadline.now() + .nanoseconds(Int64(settings.timeout.components.seconds) * 1_000_000_000 + settings.timeout.components.attoseconds / 1_000_000_000)
        let response = try await client.execute(request, deadline: deadline)
        let body = try await withDeadline(deadline) { try await response.body.collect(upTo: settings.maximumResponseBytes) }
        guard response.status == .ok else { throw AssistantFailure.status(Int(response.status.code)) }
        return Data(body.readableBytesView)
    }

    /// `work`, or `timedOut` once `deadline` passes: a server that sends its head and then trickles
    /// its body must not hold the request beyond it.
    private func withDeadline<T: Sendable>(_ deadline: NIODeadline, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                let remaining = deadline - .now()
                try await Task.sleep(nanoseconds: UInt64(max(remaining.nanoseconds, 0)))
                throw HTTPClientError.deadlineExceeded
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw HTTPClientError.deadlineExceeded }
            return first
        }
    }
}
