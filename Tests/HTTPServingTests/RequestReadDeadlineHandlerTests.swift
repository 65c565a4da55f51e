@testable import HTTPServing
import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

/// The deadline handler on its own, on an embedded channel with a clock the test moves.
@Suite(.timeLimit(.minutes(3))) struct RequestReadDeadlineHandlerTests {
    private func connectedChannel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: RequestReadDeadlineHandler(
            headerTimeout: .seconds(1), bodyTimeout: .seconds(2), logger: Logger(label: "test")
        ))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    private let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: "localhost", path: "/auth/login"))

    @Test(.timeLimit(.minutes(1)))
    func aConnectionThatSendsNothingClosesAtTheHeaderDeadline() throws {
        let channel = try connectedChannel()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
    }

    @Test(.timeLimit(.minutes(1)))
    func answeringTakesAsLongAsItTakes() throws {
        let channel = try connectedChannel()
        try channel.writeInbound(head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
    }

    @Test(.timeLimit(.minutes(1)))
    func theFirstBytesOfALaterRequestStartItsHeaderDeadline() throws {
        let channel = try connectedChannel()
        try channel.writeInbound(head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        // Bytes read that the decoder could not make a part of yet: a head under way.
        channel.pipeline.fireChannelReadComplete()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
    }

    @Test(.timeLimit(.minutes(1)))
    func aBodyStillArrivingAtItsDeadlineIsCutOff() throws {
        let channel = try connectedChannel()
        try channel.writeInbound(head)
        for _ in 0..<3 {
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(600))
            try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "{")))
        }
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
        #expect(!channel.isActive)
    }
}
