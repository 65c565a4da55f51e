import HTTPServing
import Hummingbird
import Logging
import NIOCore

extension ContractError {
    /// The product's answers to what the server refuses below the router, rendered once when the
    /// server is built, from the same `init(_ refusal:)` the router's refusals come from; no route
    /// reads a body past `maximumBodySize`.
    static func connectionAnswers(maximumBodySize: Int) async throws -> ConnectionAnswers {
        ConnectionAnswers(
            notAProxy: try await rendered(.notAProxy), malformed: try await rendered(.malformedHTTP),
            headersTooLarge: try await rendered(.headersTooLarge), hostHeader: try await rendered(.hostHeader), bodyTooLarge: try await rendered(.bodyTooLarge(limit: maximumBodySize)),
            maximumBodySize: maximumBodySize
        )
    }

    private static func rendered(_ refusal: EngineRefusal) async throws -> ConnectionAnswer {
        let request = Request(head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), body: RequestBody(buffer: ByteBuffer()))
        let response = try Self(refusal).response(from: request, context: ConnectionContext(source: .init()))
        let body = CollectedBody()
        try await response.body.write(CollectingWriter(into: body))
        return ConnectionAnswer(status: response.status, headers: response.headers, body: body.bytes)
    }
}

/// The context an answer is rendered in: no request has one yet.
private struct ConnectionContext: RequestContext {
    struct Source: RequestContextSource {
        var logger = Logger(label: "connection")
    }

    var coreContext: CoreRequestContextStorage

    init(source: Source) {
        coreContext = .init(source: source)
    }
}

private final class CollectedBody: @unchecked Sendable {
    /// Written by one writer, in order, before it is read.
    var bytes = ByteBuffer()
}

private struct CollectingWriter: ResponseBodyWriter {
    let into: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        into.bytes.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
