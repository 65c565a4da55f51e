import Hummingbird

/// A product's error type: every error a handler or middleware throws maps to one of its answers, or
/// to nil when it is unexpected (a bug), which is answered `internalError`.
public protocol ContractError: HTTPResponseError {
    static func mapping(_ error: any Error) -> Self?
    static var internalError: Self { get }
}

/// Turns every error into the product's shape. An unexpected one is logged with the request id and
/// answered without internals. Mounted inside logs and metrics, so they record the status each
/// error maps to, not a 500.
public struct ContractErrorMiddleware<Context: RequestContext, Failure: ContractError>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if let mapped = Failure.mapping(error) { return try mapped.response(from: request, context: context) }
            context.logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            return try Failure.internalError.response(from: request, context: context)
        }
    }
}
