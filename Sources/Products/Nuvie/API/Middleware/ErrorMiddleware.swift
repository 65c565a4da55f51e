import Hummingbird
import Logging

/// Turns every error into the contract's error shape. Unexpected errors are logged with the request
/// id and answered 500 `INTERNAL_ERROR` without internals.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if let mapped = APIError.mapping(error) {
                return try mapped.response(from: request, context: context)
            }
            context.logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            return try APIError.internalError.response(from: request, context: context)
        }
    }
}
