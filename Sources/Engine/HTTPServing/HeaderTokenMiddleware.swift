import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Opens a group of routes to callers that send `token` in `header` (operators' `X-Admin-Token`,
/// the AI service's `X-Internal-Token`); everyone else gets `refusal`. Compared through SHA-256, so
/// the time taken says nothing about how much of the token was right.
public struct HeaderTokenMiddleware<Context: RequestContext, Refusal: Error & Sendable>: RouterMiddleware {
    let header: String
    let token: String
    let refusal: Refusal

    public init(header: String, token: String, refusal: Refusal) {
        self.header = header
        self.token = token
        self.refusal = refusal
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let given = request.headers.first(where: { $0.name.canonicalName == header.lowercased() })?.value, SHA256.hash(data: Data(given.utf8)) == SHA256.hash(data: Data(token.utf8)) else {
            throw refusal
        }
        return try await next(request, context)
    }
}
