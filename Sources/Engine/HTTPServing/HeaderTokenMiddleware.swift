import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Opens a group of routes to callers that send `token` in `header` (operators' `X-Admin-Token`,
/// the AI service's `X-Internal-Token`); everyone else gets `refusal`. Compared through SHA-256, so
/// the time taken says nothing about how much of the token was right.
public struct HeaderTokenMiddleware<Context: RequestContext, Refusal: Error & Sendable>: RouterMiddleware {
    let header: HTTPField.Name
    let tokenDigest: SHA256.Digest
    let refusal: Refusal

    /// `header` must be a valid field name: it is a constant of the product's, not input.
    public init(header: String, token: String, refusal: Refusal) {
        guard let name = HTTPField.Name(header) else { preconditionFailure("not an HTTP field name: \(header)") }
        self.header = name
        tokenDigest = SHA256.hash(data: Data(token.utf8))
        self.refusal = refusal
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let given = request.headers[header], SHA256.hash(data: Data(given.utf8)) == tokenDigest else { throw refusal }
        var response = try await next(request, context)
        // For the holder of a secret header, which (unlike Authorization, RFC 9111 3.5) does not keep
        // a shared cache from storing the answer.
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
