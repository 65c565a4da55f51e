import Foundation
import Hummingbird

/// The context of every route mounted behind sign-in: it exists only with a user, so a handler
/// cannot forget to check for one. Built from `NuvieRequestContext` after `AuthMiddleware`; without a
/// valid bearer token, 401 `AUTHENTICATION_REQUIRED` before any handler runs.
public struct SignedInRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let grant: TokenService.Grant
    public var userId: Int64 { grant.userId }

    public init(context: NuvieRequestContext) throws {
        guard let grant = context.grant else { throw NuvieAPIError.authenticationRequired("Sign in to use this endpoint") }
        coreContext = context.coreContext
        self.grant = grant
    }

    public var maxUploadSize: Int { NuvieRequestContext.maximumBodySize }
    public var responseEncoder: JSONEncoder { ContractJSON.encoder() }
    public var requestDecoder: JSONDecoder { ContractJSON.decoder() }
}
