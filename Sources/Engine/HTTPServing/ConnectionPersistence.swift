import NIOCore
import NIOHTTP1

/// Whether a connection stays open after a response, as HTTP/1.0 and 1.1 each have it (RFC 9112
/// §9.3), where Hummingbird only closes after a request whose `Connection` header is exactly
/// `close`: its requests carry no version, so an HTTP/1.0 client that sent no `keep-alive` (and reads
/// until the connection closes) waited out the idle timeout.
///
/// - A request that does not keep the connection alive is told to Hummingbird as `Connection:
///   close` (in any spelling the client used), so the connection closes after its response, which
///   says so.
/// - An HTTP/1.0 request is answered in HTTP/1.0, which has no chunked bodies: an answer without a
///   `Content-Length` ends with the connection (RFC 9112 §6.3), and nothing is written after it. A
///   kept-alive one is told it is kept.
/// - A request that asks to upgrade the protocol (`Upgrade: h2c`, as `curl --http2` sends over
///   plain HTTP) is answered in HTTP/1.1, as one that does not keep the connection: NIO's decoder
///   parses nothing after it, so a next request on it would wait out the idle timeout unanswered.
/// - A request whose framing this server cannot trust (`Transfer-Encoding` on HTTP/1.0, or a transfer
///   coding other than `chunked`) is refused as malformed, with nothing of it served.
/// - An HTTP/1.0 request's `Expect` is dropped: a server must ignore that expectation (RFC 9110
///   §10.1.1), so it gets no `100 Continue`.
///
/// Sits before Hummingbird's HTTP/1 to HTTP types codec, which drops the version.
final class ConnectionPersistence: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private struct Request {
        var version: HTTPVersion
        var keepsAlive: Bool
    }

    /// The requests whose final response has not begun, in order.
    private var owed: CircularBuffer<Request> = []
    /// The response under way is delimited by the connection's end.
    private var closeAfterResponse = false
    /// Such a response has ended: anything written after it (a refusal of a request pipelined behind
    /// it) would read as more of its body, so nothing is.
    private var delimitedByClose = false
    /// What was read behind a kept-alive HTTP/1.0 request whose answer has not begun, held back with
    /// the socket unread: whether that answer ends the connection (it has no `Content-Length`) is
    /// known only then, and a request pipelined behind it must not be served when it cannot be answered.
    private var heldBack: [Held] = []
    private var holdingBack = false
    private var readWanted = false
    /// The connection ends with the answer under way: what is read after it is taken and dropped.
    private var ending = false
    /// An answer that ends the connection has begun: nothing read after it will be answered, so
    /// nothing is held back for it either (`BelowRouterAnswers` drops it).
    private var lastAnswerBegun = false
    /// Something was passed on since the last `channelReadComplete`: a read that only dropped bytes
    /// (the connection ending) tells the handlers above nothing, or `RequestReadDeadlineHandler` would
    /// take it for a next request's first bytes and close the connection under the answer still going out.
    private var passedOnSinceReadComplete = false

    private enum Held {
        case read(NIOAny)
        case error(any Error)
        /// The client's end of input, among others: replayed in its place, so that what came before
        /// it is served first.
        case event(Any)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !ending else { return }
        guard !holdingBack else { return heldBack.append(.read(data)) }
        passedOnSinceReadComplete = true
        switch unwrapInboundIn(data) {
        case .head(var head):
            guard Self.framingIsSound(head) else {
                // Passed on as what NIO's parser reports of a broken message: answered 400 in the
                // product's shape (`BelowRouterAnswers`), nothing of it served, and the connection ends.
                ending = true
                return context.fireErrorCaught(HTTPParserError.invalidHeaderToken)
            }
            if head.version == .http1_0 { head.headers.remove(name: "expect") }
            // NIO's decoder parses nothing after a request that asks to upgrade (it hands the rest to
            // an upgrader, and this server has none): its answer is the connection's last.
            let keepsAlive = head.isKeepAlive && !head.headers.contains(name: "upgrade")
            if !keepsAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
            owed.append(Request(version: head.version, keepsAlive: keepsAlive))
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            context.fireChannelRead(data)
            if !lastAnswerBegun, let last = owed.last, last.version == .http1_0, last.keepsAlive { holdingBack = true }
        }
    }

    /// RFC 9112 §6.1: an HTTP/1.0 message with `Transfer-Encoding` has faulty framing, and a transfer
    /// coding other than `chunked` alone (`gzip, chunked`) is one this server cannot read; NIO's parser
    /// takes both, and would read the body as if neither were said.
    private static func framingIsSound(_ head: HTTPRequestHead) -> Bool {
        guard head.headers.contains(name: "transfer-encoding") else { return true }
        return head.version != .http1_0 && head.headers[canonicalForm: "transfer-encoding"].map { $0.lowercased() } == ["chunked"]
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard !ending || passedOnSinceReadComplete else { return }
        passedOnSinceReadComplete = false
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !ending else { return }
        if holdingBack { heldBack.append(.error(error)) } else { context.fireErrorCaught(error) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if holdingBack { heldBack.append(.event(event)) } else { context.fireUserInboundEventTriggered(event) }
    }

    func read(context: ChannelHandlerContext) {
        if holdingBack { readWanted = true } else { context.read() }
    }

    /// The answer to the HTTP/1.0 request held behind has begun: what was held is dropped when that
    /// answer ends the connection, otherwise read as it came.
    private func release(_ context: ChannelHandlerContext, connectionEnds: Bool) {
        guard holdingBack, owed.isEmpty || connectionEnds else { return }
        holdingBack = false
        let held = heldBack
        heldBack = []
        if connectionEnds { ending = true }
        for part in held {
            switch part {
            case .read(let data): channelRead(context: context, data: data)
            case .error(let error): errorCaught(context: context, error: error)
            case .event(let event): userInboundEventTriggered(context: context, event: event)
            }
        }
        if !held.isEmpty { channelReadComplete(context: context) }
        if readWanted, !holdingBack {
            readWanted = false
            context.read()
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !delimitedByClose else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200:
            guard let request = owed.popFirst() else { return context.write(data, promise: promise) }
            // An HTTP/1.1 answer that says `close` already says it; only 1.0's is rewritten.
            var closing = !request.keepsAlive
            if request.version == .http1_0 {
                closing = closing || head.headers[canonicalForm: "connection"].contains("close")
                head.version = .http1_0
                let bodyless = head.status == .noContent || head.status == .notModified
                if !bodyless, !head.headers.contains(name: "content-length") {
                    closeAfterResponse = true
                    closing = true
                }
                if !closing { head.headers.replaceOrAdd(name: "Connection", value: "keep-alive") }
            }
            if closing {
                head.headers.replaceOrAdd(name: "Connection", value: "close")
                lastAnswerBegun = true
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            release(context, connectionEnds: closing)
        case .end where closeAfterResponse:
            closeAfterResponse = false
            delimitedByClose = true
            let channel = context.channel
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in channel.close(mode: .output, promise: nil) }
            written.futureResult.cascade(to: promise)
            context.write(data, promise: written)
        default:
            context.write(data, promise: promise)
        }
    }
}
