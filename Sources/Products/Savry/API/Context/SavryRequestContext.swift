import Foundation
import Hummingbird
import NIOCore

/// Per-request context of Savry's routes: the signed-in user once `SavryAuthMiddleware` has found one.
public struct SavryRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `SavryAuthMiddleware` from a valid bearer token.
    public var grant: SavryTokens.Grant?
    public var userId: Int64? { grant?.userId }
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        grant = nil
        remoteAddress = source.channel.remoteAddress
    }

    /// A recipe at every cap (`RecipeRules`) fits, with room for multi-byte text.
    public static let maximumBodySize = 512 * 1024

    public var maxUploadSize: Int { Self.maximumBodySize }
    public var responseEncoder: JSONEncoder { SavryJSON.encoder() }
}
