import Hummingbird
import NuvieCommands

/// `POST /auth/logout` ends the caller's session (this device); `POST /auth/logout-all` ends every
/// session of theirs. Both answer 204, and from then on the ended sessions' access and refresh
/// tokens are refused (401), here and on every other request.
struct SessionsController: Sendable {
    let commands: NuvieCommandService
    let tokens: NuvieTokens

    var endpoints: RouteCollection<NuvieSignedInContext> {
        RouteCollection(context: NuvieSignedInContext.self)
            .post("logout", use: logout)
            .post("logout-all", use: logoutEverywhere)
    }

    /// A client may send the refresh token it holds (`LogoutRequest`); the session ended is the
    /// access token's either way.
    func logout(_ request: Request, context: NuvieSignedInContext) async throws -> HTTPResponse.Status {
        _ = try await JSONBody.decodeIfPresent(request, context: context, fields: ["refresh_token"])
        _ = try await commands.logout(userId: context.userId, sessionId: context.grant.sessionId)
        tokens.forget(userId: context.userId, sessionId: context.grant.sessionId)
        return .noContent
    }

    func logoutEverywhere(_ request: Request, context: NuvieSignedInContext) async throws -> HTTPResponse.Status {
        _ = try await JSONBody.decodeIfPresent(request, context: context, fields: ["refresh_token"])
        _ = try await commands.logoutEverywhere(userId: context.userId)
        tokens.forget(userId: context.userId)
        return .noContent
    }
}
