import HTTPServing
import Hummingbird

/// Reads `Authorization: Bearer …`. A valid access token of a live session sets `context.grant`; a
/// present but invalid or expired one, or one whose session ended or whose user is erased, sets
/// `context.credentialRefusal`. Routes that need a user are mounted with `NuvieSignedInContext`, which
/// answers a request without a grant 401; open routes serve it: an app that sends its stored token
/// with every request must still be able to refresh it, or sign in again, once it has expired.
struct NuvieAuthMiddleware: RouterMiddleware {
    typealias Context = NuvieRequestContext
    let tokens: NuvieTokens

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        var context = context
        if let token = BearerToken.of(header), let grant = try await tokens.grant(fromAccessToken: token) {
            context.grant = grant
            context.logger[metadataKey: "user.id"] = .stringConvertible(grant.userId)
        } else {
            context.credentialRefusal = NuvieAPIError.tokenRefused
        }
        return try await next(request, context)
    }
}
