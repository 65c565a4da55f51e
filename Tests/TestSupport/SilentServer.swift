import NIOCore
import NIOPosix

/// A TCP server on 127.0.0.1 that takes every connection and never answers: a server that hangs
/// after the handshake, which only a deadline gets past.
public final class SilentServer: Sendable {
    public let port: Int
    private let listener: any Channel

    public init() async throws {
        listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = listener.localAddress?.port else { throw ChannelError.inputClosed }
        self.port = port
    }

    public func stop() async {
        try? await listener.close()
    }
}
