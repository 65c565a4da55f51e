import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// What the server answers below the router, in order with the responses owed to earlier pipelined
/// requests, where Hummingbird answers nothing or an empty 400:
///
/// - `Expect: 100-continue`: `100 Continue`, so that a client that waits for it before sending its
///   body (curl for any body over 1 MB, many HTTP libraries for uploads) sends it at once instead
///   of after its own timeout (curl's: a second). None once the body has begun to arrive. When its
///   `Content-Length` is past what any route reads, the product's 413 instead, once the responses
///   owed before it have ended, and the connection closes: the client need not send the body.
/// - A request with more than one `Host`, or one whose value is not a host and port (RFC 9112 §3.2):
///   the product's 400, once the responses owed before it have ended, and the connection closes. A
///   request refused from its head is answered under its `X-Request-Id` when it sent a sane one.
///   One without `Host`, which the RFC also
///   refuses from HTTP/1.1 clients, is served: nothing reads it, and clients that omit it
///   (Hummingbird's own test client among them) would fail for no protection.
/// - `CONNECT`: the product's 405, once the responses owed before it have ended, and the connection
///   closes; this server is no proxy, and without an answer NIO, expecting a tunnel, would hang.
/// - Bytes NIO's parser refused before a request's head was whole (a garbage request line, headers
///   past the decoder's limit): the product's error (`ConnectionAnswers`).
/// - A parse error inside a body its handler may still read is passed on: the handler fails reading
///   it, and the product's error middleware answers (`EngineRefusal.malformedHTTP`). Inside the body
///   of a request already answered (a 401 before its body was read): nothing more.
///
/// - An answer given while its request's body is still arriving (a 413 past the route's limit, a 401
///   before the body was read): `Connection: close`, and the connection closes after it, with what
///   the client still sends taken for a moment and dropped, rather than read to its end (a client
///   announcing a gigabyte would otherwise have it all read).
///
/// After a parse error the connection closes, since where a next request would start cannot be known.
final class BelowRouterAnswers: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a connection closed for a parse error still takes what the client sends, so that it
    /// reads the answer rather than a reset.
    static let lingering = TimeAmount.seconds(2)
    /// Unavailable in HTTP types as a field (`HTTPRequest.authority` holds the first one).
    private static let host = HTTPField.Name("Host")!

    /// How the connection ends, once that is decided.
    private enum Ending {
        /// The request being read was refused from its head: what follows of it is not passed on,
        /// and `answer` is owed once the responses before it have ended, under the request's id.
        case refusedFromHead(answer: ConnectionAnswer, requestId: String?)
        /// NIO's parser failed: the connection closes once the responses owed have ended, after
        /// `answer` if one is owed.
        case parserFailed(answer: ConnectionAnswer?)
        /// A request that does not keep the connection (`Connection: close`, as `ConnectionPersistence`
        /// marks HTTP/1.0's too) has been read whole: what the client still sends is taken and dropped,
        /// and no answer follows that request's, which closes the connection.
        case lastRequestRead
        /// Nothing more is read or written (`close`).
        case closing
    }

    private let answers: ConnectionAnswers
    /// A head has arrived and its body has not ended.
    private var readingRequest = false
    /// The request being read is the connection's last (`Connection: close`).
    private var readingLastRequest = false
    /// Requests whose responses have not ended yet.
    private var responsesOwed = 0
    /// The request being read expects `100 Continue`, owed once the responses before it have ended.
    private var continueOwed = false
    private var ending: Ending?
    /// The response under way answers a request whose body had not ended when it began.
    private var closeAfterResponse = false

    init(answers: ConnectionAnswers) {
        self.answers = answers
    }

    /// Also puts `ConnectionPersistence` before Hummingbird's codec, where it sees each request's
    /// version, and where Hummingbird's `additionalChannelHandlers` cannot go.
    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        do {
            let codec = try pipeline.context(handlerType: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(ConnectionPersistence(), position: .before(codec.handler))
        } catch {
            assertionFailure("ConnectionPersistence has no place before Hummingbird's codec: \(error)")
            context.fireErrorCaught(error)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // After `Connection: close` no further request may be served (RFC 9112 §9.6): what the client
        // still sends is taken and dropped.
        switch ending {
        case .refusedFromHead?, .lastRequestRead?, .closing?: return
        case .parserFailed?, nil: break
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if head.method == .connect { return refuseFromHead(context, head, answers.notAProxy) }
            // The codec took the first `Host` as the authority: one left among the fields is a second.
            if head.headerFields[Self.host] != nil { return refuseFromHead(context, head, answers.hostHeader) }
            if !HostValue.isValid(head.authority ?? "") { return refuseFromHead(context, head, answers.invalidHost) }
            let expectsContinue = head.headerFields[.expect]?.lowercased() == "100-continue"
            if expectsContinue, let length = head.headerFields[.contentLength].flatMap(Int.init), length > answers.maximumBodySize {
                return refuseFromHead(context, head, answers.bodyTooLarge)
            }
            readingRequest = true
            readingLastRequest = head.headerFields[.connection] == "close"
            responsesOwed += 1
            if expectsContinue {
                if responsesOwed == 1 { tellToContinue(context) } else { continueOwed = true }
            }
        case .body: continueOwed = false
        case .end:
            readingRequest = false
            continueOwed = false
            if readingLastRequest, case .none = ending { ending = .lastRequestRead }
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch (ending, error) {
        case (.refusedFromHead?, is HTTPParserError), (.refusedFromHead?, is ByteToMessageDecoderError),
             (.closing?, is HTTPParserError), (.closing?, is ByteToMessageDecoderError),
             (.lastRequestRead?, is HTTPParserError), (.lastRequestRead?, is ByteToMessageDecoderError),
             (.parserFailed?, ByteToMessageDecoderError.dataReceivedInErrorState):
            return
        default: break
        }
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        continueOwed = false
        let answer = parserError == .headerOverflow ? answers.headersTooLarge : answers.malformed
        switch (readingRequest, responsesOwed) {
        case (true, 1...):
            ending = .parserFailed(answer: nil)
            context.fireErrorCaught(error)
        case (true, _): close(context)
        case (false, 0): answerAndClose(context, answer)
        case (false, _): ending = .parserFailed(answer: answer)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .closing = ending {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        var part = unwrapOutboundIn(data)
        if case .head(var head) = part, head.status.code >= 200, readingRequest, responsesOwed == 1 {
            head.headerFields[.connection] = "close"
            part = .head(head)
            closeAfterResponse = true
        }
        context.write(wrapOutboundOut(part), promise: promise)
        guard case .end = part else { return }
        responsesOwed -= 1
        if closeAfterResponse {
            close(context)
        } else if case .refusedFromHead(let answer, let requestId) = ending, responsesOwed == 0 {
            answerAndClose(context, answer, requestId: requestId)
        } else if case .parserFailed(let answer) = ending, responsesOwed == 0 {
            if let answer { answerAndClose(context, answer) } else { close(context) }
        } else if continueOwed, responsesOwed == 1 {
            continueOwed = false
            tellToContinue(context)
        }
    }

    /// Not passed on: nothing of this request reaches a route, and nothing after it. Answered once the
    /// responses owed before it have ended, under the client's `X-Request-Id` when it sent a sane one.
    private func refuseFromHead(_ context: ChannelHandlerContext, _ head: HTTPRequest, _ answer: ConnectionAnswer) {
        let requestId = HTTPField.Name.saneRequestId(head.headerFields[.requestId])
        ending = .refusedFromHead(answer: answer, requestId: requestId)
        if responsesOwed == 0 { answerAndClose(context, answer, requestId: requestId) }
    }

    private func tellToContinue(_ context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
    }

    /// With the request's id, or one of its own, as every answer carries one.
    private func answerAndClose(_ context: ChannelHandlerContext, _ answer: ConnectionAnswer, requestId: String? = nil) {
        answer.count()
        let requestId = requestId ?? RequestID().description
        if answer.answersConnect, let belowEncoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) {
            // NIO's encoder drops the body of any response to CONNECT, expecting a tunnel; only a 2xx
            // opens one (RFC 9110 §9.3.6), and a refusal is framed like any other response. Closed
            // whole once written, not lingering: NIO's decoder stops parsing after a CONNECT, so what
            // the client still sent would pile up unread.
            ending = .closing
            let channel = context.channel
            context.flush()
            belowEncoder.writeAndFlush(NIOAny(answer.bytes(requestId: requestId))).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        context.write(wrapOutboundOut(.head(answer.head(requestId: requestId))), promise: nil)
        context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        close(context)
    }

    /// Once what is written has gone out (an empty write below the response encoder completes after
    /// every write before it), the sending side only: closing over bytes still arriving would reset
    /// the connection, and the client could lose the answer. The rest when the client closes, or
    /// after `lingering`. Nothing written after this is sent.
    private func close(_ context: ChannelHandlerContext) {
        if case .closing = ending { return }
        ending = .closing
        let channel = context.channel
        guard let belowEncoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            return channel.close(promise: nil)
        }
        context.flush()
        belowEncoder.writeAndFlush(NIOAny(ByteBuffer())).whenComplete { _ in
            channel.close(mode: .output).whenFailure { error in
                // Already closed for output (an HTTP/1.0 answer delimited by the close): linger all the same.
                if case ChannelError.outputClosed? = error as? ChannelError { return }
                channel.close(promise: nil)
            }
            channel.eventLoop.scheduleTask(in: Self.lingering) { channel.close(promise: nil) }
        }
    }
}
