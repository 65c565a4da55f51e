import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers CONNECT with the product's refusal (`ConnectionAnswers.notAProxyResponse`), then closes: this
/// server is no proxy. Without it a CONNECT gets no usable answer and the connection hangs, because NIO expects a
/// tunnel: its decoder stops parsing after the request and its encoder drops the body of any
/// response to one. So the answer is written as bytes below the encoder; only a 2xx answer to CONNECT
/// opens a tunnel (RFC 9110 9.3.6), a refusal is framed like any other response.
final class ConnectRejectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private var rejected = false
    private let answers: ConnectionAnswers

    init(answers: ConnectionAnswers) {
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !rejected else { return }
        guard case .head(let head) = unwrapInboundIn(data), head.method == .connect else {
            context.fireChannelRead(data)
            return
        }
        rejected = true
        let channel = context.channel
        guard let belowEncoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            channel.close(promise: nil)
            return
        }
        answers.notAProxy.count()
        belowEncoder.writeAndFlush(NIOAny(answers.notAProxyResponse)).whenComplete { _ in channel.close(promise: nil) }
    }
}
