import Foundation
import Hummingbird
import NIOCore

/// Per-request context: the authenticated user (if any) and the contract's JSON coders.
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `AuthMiddleware` from a valid bearer token.
    public var userId: Int64?
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        userId = nil
        remoteAddress = source.channel.remoteAddress
    }

    public var maxUploadSize: Int { 64 * 1024 }
    public var responseEncoder: JSONEncoder { ContractJSON.encoder() }
    public var requestDecoder: JSONDecoder { ContractJSON.decoder() }

    /// The signed-in user, or 401 `AUTHENTICATION_REQUIRED`.
    public func requireUser() throws(APIError) -> Int64 {
        guard let userId else { throw .authenticationRequired("Sign in to use this endpoint") }
        return userId
    }
}
