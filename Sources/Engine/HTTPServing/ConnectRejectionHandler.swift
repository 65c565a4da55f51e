import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers CONNECT with 405 and the product's error body (`ConnectionLimits.connectRefusal`), then closes: this server is no
/// proxy. Without it a CONNECT gets no usable answer and the connection hangs, because NIO expects a
/// tunnel: its decoder stops parsing after the request and its encoder drops the body of any
/// response to one. So the answer is written as bytes below the encoder; only a 2xx answer to CONNECT
/// opens a tunnel (RFC 9110 9.3.6), a 405 is framed like any other response.
final class ConnectRejectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private var rejected = false
    private let response: String

    init(body: String) {
        response = "HTTP/1.1 405 Method Not Allowed\r\n"
            + "Content-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n"
            + body
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
        var bytes = context.channel.allocator.buffer(capacity: response.utf8.count)
        bytes.writeString(response)
        belowEncoder.writeAndFlush(NIOAny(bytes)).whenComplete { _ in channel.close(promise: nil) }
    }
}
