import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Whether the server's address can be listened on, asked before it opens anything: a port in use
/// was said only once the stores were open, the demo imported and the model trained, in NIO's words
/// (`bind(descriptor:ptr:bytes:): Address already in use`), without the address.
enum ListeningAddress {
    struct Refused: Error, CustomStringConvertible {
        var host: String
        var port: Int
        var reason: String
        var description: String { "cannot listen on \(host):\(port): \(reason)" }
    }

    /// Binds a socket to `host`:`port` as the server will (SO_REUSEADDR) and closes it. Port 0 (any
    /// free port) is not checked.
    static func check(host: String, port: Int) throws {
        guard port != 0 else { return }
        let address: SocketAddress
        do {
            address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        } catch {
            throw Refused(host: host, port: port, reason: "the address does not resolve (\(error))")
        }
        let family = address.protocol == .inet6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withSockAddr { pointer, size in bind(descriptor, pointer, socklen_t(size)) }
        guard bound == 0 else {
            let code = errno
            let hint = code == EADDRINUSE ? " (another server listens there: stop it, or give this one another --port)" : ""
            throw Refused(host: host, port: port, reason: String(cString: strerror(code)) + hint)
        }
    }
}
