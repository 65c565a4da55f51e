import HTTPServing
import Hummingbird

/// Requires `Authorization: Bearer <token>` with a valid token of an active (registered, not erased)
/// user, and puts the user in the context; anything else is a 401 before any handler runs.
struct SavryAuthMiddleware: RouterMiddleware {
    typealias Context = SavryRequestContext
    let tokens: SavryTokens

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { throw SavryAPIError.unauthorized("Unauthorized: send Authorization: Bearer <token>") }
        guard let token = BearerToken.of(header), let userId = try await tokens.userId(from: token) else {
            throw SavryAPIError.unauthorized("Unauthorized: the token is invalid or expired; sign in again")
        }
        var context = context
        context.userId = userId
        context.logger[metadataKey: "user.id"] = .stringConvertible(userId)
        return try await next(request, context)
    }
}
