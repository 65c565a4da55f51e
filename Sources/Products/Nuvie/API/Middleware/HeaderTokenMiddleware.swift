import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Opens a group of routes to callers that send `token` in `header` (operators' `X-Admin-Token`,
/// the AI service's `X-Internal-Token`); everyone else gets `refusal`. Compared through SHA-256, so
/// the time taken says nothing about how much of the token was right.
struct HeaderTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let header: String
    let token: String
    let refusal: APIError

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let given = request.headers.value(named: header), SHA256.hash(data: Data(given.utf8)) == SHA256.hash(data: Data(token.utf8)) else {
            throw refusal
        }
        return try await next(request, context)
    }
}
