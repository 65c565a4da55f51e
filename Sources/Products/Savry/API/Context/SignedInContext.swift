import Foundation
import Hummingbird

/// The context of every route mounted behind `SavryAuthMiddleware`: it exists only with a user, so
/// a handler cannot forget to check for one.
public struct SignedInContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let userId: Int64

    public init(context: SavryRequestContext) throws {
        guard let userId = context.userId else { throw SavryAPIError.unauthorized("Sign in to use this endpoint") }
        coreContext = context.coreContext
        self.userId = userId
    }

    public var maxUploadSize: Int { SavryRequestContext.maximumBodySize }
    public var responseEncoder: JSONEncoder { SavryJSON.encoder() }
}
