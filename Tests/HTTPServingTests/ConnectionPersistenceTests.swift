@testable import HTTPServing
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

/// What each answer says of its connection, on an embedded channel: the handler alone.
@Suite struct ConnectionPersistenceTests {
    /// The head `answer` leaves as, answering a request of `version` with `connection` (nil: none).
    private func answered(_ version: HTTPVersion, connection: String?, _ answer: HTTPResponseHead) throws -> HTTPResponseHead? {
        let channel = EmbeddedChannel(handler: ConnectionPersistence())
        var headers = HTTPHeaders()
        if let connection { headers.add(name: "Connection", value: connection) }
        try channel.writeInbound(HTTPServerRequestPart.head(HTTPRequestHead(version: version, method: .GET, uri: "/", headers: headers)))
        try channel.writeOutbound(HTTPServerResponsePart.head(answer))
        guard case .head(let written)? = try channel.readOutbound(as: HTTPServerResponsePart.self) else { return nil }
        return written
    }

    private static func answer(_ headers: [(String, String)], status: HTTPResponseStatus = .ok) -> HTTPResponseHead {
        HTTPResponseHead(version: .http1_1, status: status, headers: HTTPHeaders(headers))
    }

    @Test func anHTTP10KeepAliveIsConfirmedUnlessTheAnswerCloses() throws {
        let kept = try #require(try answered(.http1_0, connection: "keep-alive", Self.answer([("Content-Length", "2")])))
        #expect(kept.version == .http1_0 && kept.headers["Connection"] == ["keep-alive"])
        let closing = try #require(try answered(.http1_0, connection: "keep-alive", Self.answer([("Content-Length", "2"), ("Connection", "close")], status: .badRequest)))
        #expect(closing.headers["Connection"] == ["close"], "an answer that closes its connection never says keep-alive")
    }

    @Test func anAnswerOfUnknownLengthToHTTP10EndsWithTheConnection() throws {
        let channel = EmbeddedChannel(handler: ConnectionPersistence())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(HTTPServerRequestPart.head(HTTPRequestHead(version: .http1_0, method: .GET, uri: "/", headers: ["Connection": "keep-alive"])))
        try channel.writeOutbound(HTTPServerResponsePart.head(Self.answer([])))
        guard case .head(let head)? = try channel.readOutbound(as: HTTPServerResponsePart.self) else { throw CancellationError() }
        #expect(head.version == .http1_0 && head.headers["Connection"] == ["close"])
        try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "{}"))))
        #expect(channel.isActive)
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive || !channel.isWritable, "its output closed after the body")
    }

    @Test func anHTTP11AnswerSaysNothingUnlessTheRequestClosed() throws {
        let open = try #require(try answered(.http1_1, connection: nil, Self.answer([])))
        #expect(open.version == .http1_1 && open.headers["Connection"].isEmpty)
        let closed = try #require(try answered(.http1_1, connection: "Close", Self.answer([("Content-Length", "0")])))
        #expect(closed.headers["Connection"] == ["close"])
    }
}
