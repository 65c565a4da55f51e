import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// What follows bytes NIO's parser refused, where Hummingbird would write an empty 400:
///
/// - before a request's head was whole (a garbage request line, headers past the decoder's limit):
///   the product's error (`ConnectionAnswers`), after the responses owed to earlier requests;
/// - inside a body its handler may still read: the error is passed on, the handler fails reading it,
///   and the product's error middleware answers (`EngineRefusal.malformedHTTP`);
/// - inside a body of a request already answered (a 401 before its body was read): nothing more.
///
/// Then the connection closes: where a next request would start cannot be known.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let answers: ConnectionAnswers
    /// A head has arrived and its body has not ended.
    private var readingRequest = false
    /// Requests whose responses have not ended yet.
    private var responsesOwed = 0
    private var parserFailed = false
    private var answerAfterResponses: ConnectionAnswer?
    private var closing = false

    init(answers: ConnectionAnswers) {
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            readingRequest = true
            responsesOwed += 1
        case .end: readingRequest = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        parserFailed = true
        let answer = parserError == .headerOverflow ? answers.headersTooLarge : answers.malformed
        switch (readingRequest, responsesOwed) {
        case (true, 1...): context.fireErrorCaught(error)
        case (true, _): close(context)
        case (false, 0): answerAndClose(context, answer)
        case (false, _): answerAfterResponses = answer
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data) else { return }
        responsesOwed -= 1
        guard parserFailed, responsesOwed == 0 else { return }
        if let answer = answerAfterResponses { answerAndClose(context, answer) } else { close(context) }
    }

    private func answerAndClose(_ context: ChannelHandlerContext, _ answer: ConnectionAnswer) {
        context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
        context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        close(context)
    }

    /// Once what is written has gone out; nothing written after is sent. An empty write below the
    /// response encoder completes after every write before it.
    private func close(_ context: ChannelHandlerContext) {
        closing = true
        let channel = context.channel
        guard let belowEncoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            return channel.close(promise: nil)
        }
        context.flush()
        belowEncoder.writeAndFlush(NIOAny(ByteBuffer())).whenComplete { _ in channel.close(promise: nil) }
    }
}
