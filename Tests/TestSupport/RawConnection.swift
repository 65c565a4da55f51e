import Foundation
import NIOCore
import NIOPosix

/// A TCP connection to the live server that sends bytes exactly as given (requests no HTTP client
/// would send, or sends slowly) and keeps everything the server answers.
public struct RawConnection: Sendable {
    private let channel: any Channel
    private let received: NIOLoopBound<ReceivedBytes>

    /// The handler that keeps what the server sends is in the pipeline before the connection is, so
    /// nothing is missed even when the server answers (or closes) at once on a loaded machine.
    /// `source`, another loopback address, makes the connection come from another client.
    public static func open(port: Int, from source: String = "127.0.0.1") async throws -> RawConnection {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let received = try await loop.submit { NIOLoopBound(ReceivedBytes(), eventLoop: loop) }.get()
        var bootstrap = ClientBootstrap(group: loop).connectTimeout(.seconds(5))
        if source != "127.0.0.1" { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
        let channel = try await bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(received.value) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, received: received)
    }

    public func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Sends `text` one byte every `interval` until it is sent or the server closes the connection;
    /// returns how many bytes went.
    @discardableResult
    public func trickle(_ text: String, every interval: Duration) async throws -> Int {
        var sent = 0
        for byte in text.utf8 where channel.isActive {
            try? await channel.writeAndFlush(ByteBuffer(bytes: [byte]))
            sent += 1
            try await Task.sleep(for: interval)
        }
        return sent
    }

    /// Everything the server has sent so far.
    public func text() async throws -> String {
        try await channel.eventLoop.submit { [received] in String(buffer: received.value.bytes) }.get()
    }

    /// Whether the server closed the connection within `timeout`.
    public func closes(within timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while channel.isActive, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return !channel.isActive
    }

    /// Waits up to `timeout` for a whole response (head and `Content-Length` body) and returns it.
    public func response(within timeout: Duration) async throws -> RawResponse? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let response = RawResponse(try await text()) { return response }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Ends what this side sends (a half-close, as `nc -N` does) while still reading the answers.
    public func finishSending() async throws {
        try await channel.close(mode: .output)
    }

    public func close() async {
        try? await channel.close()
    }
}

/// One HTTP/1.1 response read off the wire.
public struct RawResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: String

    /// nil until `text` holds a whole response.
    public init?(_ text: String) {
        guard let end = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        guard let statusLine = lines.first?.split(separator: " "), statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Data(text[end.upperBound...].utf8)
        guard let length = headers["content-length"].flatMap(Int.init), body.count >= length else { return nil }
        self.status = status
        self.headers = headers
        self.body = String(decoding: body.prefix(length), as: UTF8.self)
    }
}

private final class ReceivedBytes: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    var bytes = ByteBuffer()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var part = unwrapInboundIn(data)
        bytes.writeBuffer(&part)
    }
}
