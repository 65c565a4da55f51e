import Foundation
import Hummingbird

/// The context of every route mounted behind `SavryAuthMiddleware`: it exists only with a user, so
/// a handler cannot forget to check for one.
public struct SignedInContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The token the request came with, and its user.
    public let grant: SavryTokens.Grant
    public var userId: Int64 { grant.userId }

    public init(context: SavryRequestContext) throws {
        guard let grant = context.grant else { throw SavryAPIError.unauthorized("Sign in to use this endpoint") }
        coreContext = context.coreContext
        self.grant = grant
    }

    public var maxUploadSize: Int { SavryRequestContext.maximumBodySize }
    public var responseEncoder: JSONEncoder { SavryJSON.encoder() }
}
