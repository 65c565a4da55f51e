import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOConcurrencyHelpers
import TestSupport

/// An OpenAI-compatible chat-completions server on 127.0.0.1 for the client to talk to: it answers,
/// dawdles, fails, talks nonsense or talks too much, as told, and keeps every request it was sent.
final class FakeModelServer: Sendable {
    enum Behaviour: Sendable {
        case answer(String, after: Duration = .zero)
        case slow(Duration)
        case status(Int)
        case malformed
        case tooLong(bytes: Int)
    }

    let behaviour = NIOLockedValueBox<Behaviour>(.answer("A fake model's answer."))
    private let requests = NIOLockedValueBox<[Data]>([])

    /// The JSON body of the last request.
    var lastRequest: [String: Any]? {
        requests.withLockedValue { $0.last }.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }
    }

    var lastMessages: [[String: String]] {
        (lastRequest?["messages"] as? [[String: String]]) ?? []
    }

    /// Serves until `body` returns; `body` gets the base URL (`http://127.0.0.1:<port>/v1`).
    func run<T: Sendable>(_ body: @Sendable (URL) async throws -> T) async throws -> T {
        let router = Router()
        router.post("/v1/chat/completions") { request, context -> Response in
            let data = try await request.body.collect(upTo: 1 << 20)
            self.requests.withLockedValue { $0.append(Data(data.readableBytesView)) }
            switch self.behaviour.withLockedValue({ $0 }) {
            case .answer(let text, let delay):
                try await Task.sleep(for: delay)
                let reply: [String: Any] = [
                    "id": "chatcmpl-1", "object": "chat.completion", "model": "fake-model-1",
                    "choices": [["index": 0, "message": ["role": "assistant", "content": text], "finish_reason": "stop"]],
                    "usage": ["prompt_tokens": 42, "completion_tokens": 7, "total_tokens": 49],
                ]
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: reply))))
            case .slow(let delay):
                try await Task.sleep(for: delay)
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
            case .status(let code):
                return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"message":"boom"}}"#)))
            case .malformed:
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"choices": "not a list"#)))
            case .tooLong(let bytes):
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: "a"), count: bytes)))
            }
        }
        var logger = Logger(label: "fake-model")
        logger.logLevel = .critical
        return try await serve(router, logger: logger) { port in
            try await body(URL(string: "http://127.0.0.1:\(port)/v1")!)
        }
    }
}
