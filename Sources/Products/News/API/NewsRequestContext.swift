import Foundation
import HTTPServing
import Hummingbird
import NIOCore

/// Per-request context: the user the request is for, once `UserIdMiddleware` has read it.
public struct NewsRequestContext: BodyLimitedRequestContext, ClientAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var userId = ""
    /// The answer to a request that named no valid user, given once the rate limit has counted it.
    var userIdRefusal: NewsAPIError?
    public var remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The contract's development default: the user of a request that names none, in demo mode.
    public static let defaultUser = "1"
    public static let maximumBodySize = 64 * 1024
    public var responseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }
}
