import NIOCore
import NIOHTTP1

/// Whether a connection stays open after a response, as HTTP/1.0 and 1.1 each have it (RFC 9112
/// §9.3), where Hummingbird only closes after a request whose `Connection` header is exactly
/// `close`: its requests carry no version, so an HTTP/1.0 client that sent no `keep-alive` (and reads
/// until the connection closes) waited out the idle timeout.
///
/// A request that does not keep the connection alive is told to Hummingbird as `Connection: close`
/// (in any spelling the client used), so the connection closes after its response; each response
/// says what it does with the connection, as an HTTP/1.0 client needs to hear. An HTTP/1.0 request's
/// `Expect` is dropped: a server must ignore that expectation (RFC 9110 §10.1.1), so it gets no
/// `100 Continue`.
///
/// Sits before Hummingbird's HTTP/1 to HTTP types codec, which drops the version.
final class ConnectionPersistence: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// For each request whose final response has not begun, in order: whether it keeps the
    /// connection alive, when the response must say so (HTTP/1.0 only says it when it does).
    private var owed: CircularBuffer<Persistence> = []

    private enum Persistence {
        case implicit, keepAlive, close
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        let oneZero = head.version < .http1_1
        if oneZero { head.headers.remove(name: "expect") }
        if !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            owed.append(.close)
        } else {
            owed.append(oneZero ? .keepAlive : .implicit)
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200, let persistence = owed.popFirst() else {
            return context.write(data, promise: promise)
        }
        switch persistence {
        case .implicit: return context.write(data, promise: promise)
        case .keepAlive: head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        case .close: head.headers.replaceOrAdd(name: "Connection", value: "close")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}

private extension HTTPVersion {
    static func < (lhs: HTTPVersion, rhs: HTTPVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
