import HTTPServing
import Hummingbird

/// Requires `Authorization: Bearer <token>` with a valid token of an active (registered, not erased)
/// user that was not signed out of, and puts the user and the token in the context; anything else is a 401 before any handler runs
/// (a 503 when a node of a shared log cannot check the token yet: `ReadYourWrites.found`).
struct SavryAuthMiddleware: RouterMiddleware {
    typealias Context = SavryRequestContext
    let tokens: SavryTokens

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { throw SavryAPIError.unauthorized("Unauthorized: send Authorization: Bearer <token>") }
        guard let token = BearerToken.of(header), let grant = try await tokens.grant(from: token) else {
            throw SavryAPIError.unauthorized("Unauthorized: the token is invalid, expired or signed out; sign in again")
        }
        var context = context
        context.grant = grant
        context.logger[metadataKey: "user.id"] = .stringConvertible(grant.userId)
        return try await next(request, context)
    }
}
