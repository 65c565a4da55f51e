import NIOCore
import NIOConcurrencyHelpers

/// At most `limit` connections open at once from one client address; one more is closed as soon as
/// it opens. Without it one client that opens connections and leaves them idle holds every slot of
/// `ConnectionLimits.maxConnections`, and every other client waits up to the idle timeout.
final class ConnectionsPerAddress: Sendable {
    let limit: Int
    private let open = NIOLockedValueBox<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection from `address`; false (counting nothing) when it has `limit` already.
    func admit(_ address: String) -> Bool {
        open.withLockedValue { open in
            let count = open[address, default: 0]
            guard count < limit else { return false }
            open[address] = count + 1
            return true
        }
    }

    func release(_ address: String) {
        open.withLockedValue { open in
            let count = open[address, default: 1] - 1
            open[address] = count > 0 ? count : nil
        }
    }
}

/// The pipeline's side of `ConnectionsPerAddress`: admits the connection when added, releases it
/// when the connection goes.
final class PerAddressConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let connections: ConnectionsPerAddress
    private var admitted: String?

    init(_ connections: ConnectionsPerAddress) {
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let address = context.channel.remoteAddress?.clientNetwork else { return }
        if connections.admit(address) {
            admitted = address
        } else {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let admitted { connections.release(admitted) }
        admitted = nil
    }
}
