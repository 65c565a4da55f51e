import Foundation
import Hummingbird
import NIOCore

/// Per-request context: the authenticated user (if any) and the contract's JSON coders.
public struct NuvieRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `AuthMiddleware` from a valid bearer token.
    public var grant: TokenService.Grant?
    public var userId: Int64? { grant?.userId }
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        grant = nil
        remoteAddress = source.channel.remoteAddress
    }

    /// Request bodies are JSON of at most 64 KiB.
    public static let maximumBodySize = 64 * 1024

    public var maxUploadSize: Int { Self.maximumBodySize }
    public var responseEncoder: JSONEncoder { ContractJSON.encoder() }
    public var requestDecoder: JSONDecoder { ContractJSON.decoder() }
}
