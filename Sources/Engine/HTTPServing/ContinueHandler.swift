import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` as the head arrives, so that a client that asks
/// before sending its body (curl for any body over 1 MB, many HTTP libraries for uploads) sends it
/// at once: Hummingbird never answers the expectation, and such a client waited a second (curl's
/// timeout) before every upload. The final answer follows as usual; one given before the body is
/// read (a 401, say) still goes out first, and the body is then read and dropped.
final class ContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), head.headerFields[.expect]?.lowercased() == "100-continue" {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
