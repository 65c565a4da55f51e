import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow to send its request: the head must be complete
/// within `headerTimeout` of the connection opening (or of the first bytes of a later request), the
/// body within `bodyTimeout` of the head. Deadlines, not inactivity timers: a client trickling a byte
/// at a time is always active, so Hummingbird's idle timeout never closes it. Waiting between
/// requests is left to that idle timeout, and the time the server takes to answer is not limited.
final class RequestReadDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private enum Stage: String {
        case betweenRequests, head, body
    }

    private let headerTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private let logger: Logger
    private var stage = Stage.betweenRequests
    private var deadline: Scheduled<Void>?
    /// Whether the decoder produced a part since the last `channelReadComplete`; when it did not,
    /// the bytes read were the start of a head still incomplete.
    private var decodedPartSinceReadComplete = false

    init(headerTimeout: Duration, bodyTimeout: Duration, logger: Logger) {
        self.headerTimeout = TimeAmount(headerTimeout)
        self.bodyTimeout = TimeAmount(bodyTimeout)
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { awaitFirstRequest(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        awaitFirstRequest(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        decodedPartSinceReadComplete = true
        switch unwrapInboundIn(data) {
        case .head: start(.body, within: bodyTimeout, context)
        case .body: break
        case .end:
            cancelDeadline()
            stage = .betweenRequests
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if stage == .betweenRequests, !decodedPartSinceReadComplete {
            start(.head, within: headerTimeout, context)
        }
        decodedPartSinceReadComplete = false
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
    }

    private func awaitFirstRequest(_ context: ChannelHandlerContext) {
        guard stage == .betweenRequests, deadline == nil else { return }
        start(.head, within: headerTimeout, context)
    }

    private func start(_ stage: Stage, within timeout: TimeAmount, _ context: ChannelHandlerContext) {
        cancelDeadline()
        self.stage = stage
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            self.deadline = nil
            self.logger.debug("closing a connection whose request arrived too slowly", metadata: [
                "stage": "\(stage.rawValue)", "remote": "\(context.channel.remoteAddress?.description ?? "?")",
            ])
            context.close(promise: nil)
        }
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}
