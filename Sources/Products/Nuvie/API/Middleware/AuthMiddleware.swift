import HTTPServing
import Hummingbird

/// Reads `Authorization: Bearer …`. A valid access token of a registered user sets `context.userId`;
/// a present but invalid or expired one, or one whose user is not registered, is a 401. Routes that
/// need a user are mounted with `SignedInRequestContext`, which refuses a request without one.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let tokens: TokenService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        guard let token = BearerToken.of(header), let userId = try await tokens.userId(fromAccessToken: token) else {
            throw APIError.authenticationRequired("The access token is invalid or expired; sign in again or refresh it")
        }
        var context = context
        context.userId = userId
        context.logger[metadataKey: "user.id"] = .stringConvertible(userId)
        return try await next(request, context)
    }
}
