import HTTPServing
import Hummingbird

/// Reads `Authorization: Bearer …`. A valid access token of a live session sets `context.grant`; a
/// present but invalid or expired one, or one whose session ended or whose user is erased, is a 401. Routes that
/// need a user are mounted with `NuvieSignedInContext`, which refuses a request without one.
struct NuvieAuthMiddleware: RouterMiddleware {
    typealias Context = NuvieRequestContext
    let tokens: NuvieTokens

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        guard let token = BearerToken.of(header), let grant = try await tokens.grant(fromAccessToken: token) else {
            throw NuvieAPIError.tokenRefused
        }
        var context = context
        context.grant = grant
        context.logger[metadataKey: "user.id"] = .stringConvertible(grant.userId)
        return try await next(request, context)
    }
}
