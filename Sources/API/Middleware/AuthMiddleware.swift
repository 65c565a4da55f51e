import Hummingbird

/// Reads `Authorization: Bearer …`. A valid access token sets `context.userId`; a present but invalid
/// or expired one is a 401. Endpoints that need a user call `context.requireUser()`.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let tokens: TokenService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        guard header.lowercased().hasPrefix("bearer "),
              let userId = await tokens.userId(fromAccessToken: String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        else { throw APIError.authenticationRequired("The access token is invalid or expired; sign in again or refresh it") }
        var context = context
        context.userId = userId
        context.logger[metadataKey: "user.id"] = .stringConvertible(userId)
        return try await next(request, context)
    }
}
