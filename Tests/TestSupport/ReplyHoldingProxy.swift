import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy on 127.0.0.1 to a server on 127.0.0.1 that, once told to (`holdReplies(after:)`),
/// stops passing the server's bytes back on a connection whose client has sent the trigger: a
/// server that received a request and did it, whose answer never reaches the client. The trigger
/// is looked for within each read of the client's bytes: a PostgreSQL client's statement begins its
/// message, near the start of a write that NIO reads whole.
public final class ReplyHoldingProxy: Sendable {
    public let port: Int
    private let listener: any Channel
    private let trigger: NIOLockedValueBox<[UInt8]?>
    private let clients: NIOLockedValueBox<[any Channel]>

    public init(to targetPort: Int) async throws {
        let trigger = NIOLockedValueBox<[UInt8]?>(nil), clients = NIOLockedValueBox<[any Channel]>([])
        listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { client in
                clients.withLockedValue { $0.append(client) }
                return ClientBootstrap(group: client.eventLoop).connect(host: "127.0.0.1", port: targetPort).flatMapThrowing { server in
                    let held = NIOLockedValueBox(false)
                    try client.pipeline.syncOperations.addHandler(Relay(to: server, trigger: trigger, held: held))
                    try server.pipeline.syncOperations.addHandler(Relay(to: client, trigger: nil, held: held))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = listener.localAddress?.port else { throw ChannelError.inputClosed }
        self.port = port
        self.trigger = trigger
        self.clients = clients
    }

    /// From now on, a connection whose client sends `trigger` gets no more bytes from the server.
    public func holdReplies(after trigger: String) {
        self.trigger.withLockedValue { $0 = Array(trigger.utf8) }
    }

    /// Closes the listener and every connection, held or not (each closes its server's side).
    public func stop() async {
        try? await listener.close()
        for client in clients.withLockedValue({ $0 }) { try? await client.close() }
    }

    /// One direction of a connection. The client's side watches for the trigger; the server's drops
    /// what it reads once the connection is held.
    private final class Relay: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        let peer: any Channel
        /// Nil on the server's side.
        let trigger: NIOLockedValueBox<[UInt8]?>?
        let held: NIOLockedValueBox<Bool>

        init(to peer: any Channel, trigger: NIOLockedValueBox<[UInt8]?>?, held: NIOLockedValueBox<Bool>) {
            self.peer = peer
            self.trigger = trigger
            self.held = held
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = unwrapInboundIn(data)
            if let trigger, let wanted = trigger.withLockedValue({ $0 }), Self.contains(Array(bytes.readableBytesView), wanted) {
                held.withLockedValue { $0 = true }
            } else if trigger == nil, held.withLockedValue({ $0 }) {
                return
            }
            peer.writeAndFlush(bytes, promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            peer.close(promise: nil)
        }

        static func contains(_ bytes: [UInt8], _ wanted: [UInt8]) -> Bool {
            guard !wanted.isEmpty, bytes.count >= wanted.count else { return false }
            return (0...(bytes.count - wanted.count)).contains { bytes[$0..<($0 + wanted.count)].elementsEqual(wanted) }
        }
    }
}
