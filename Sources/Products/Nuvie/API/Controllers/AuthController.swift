import ReadModels
import AppleSignIn
import NuvieCommands
import NuvieDomain
import Hummingbird
import NuvieProjections
import Foundation

/// `POST /auth/login` (providers `apple`, and `dev` in demo mode) starts a session; `POST
/// /auth/refresh` rotates its refresh token: the token presented is spent, and presenting a spent one
/// again ends the session (reuse detection, OAuth 2.0 Security BCP).
struct AuthController: Sendable {
    let commands: NuvieCommandService
    let users: UserQueries
    let tokens: NuvieTokens
    let apple: AppleIdentityVerifier?
    let devLoginEnabled: Bool
    let readYourWrites: ReadYourWrites

    var endpoints: RouteCollection<NuvieRequestContext> {
        RouteCollection(context: NuvieRequestContext.self)
            .post("login", use: login)
            .post("refresh", use: refresh)
    }

    func login(_ request: Request, context: NuvieRequestContext) async throws -> LoginResponse {
        let body = try await JSONBody.decode(request, context: context, fields: ["provider", "token", "user_identifier", "name"])
        let provider = try body.requiredString("provider", maxLength: 32)
        let name = try body.string("name", maxLength: 100)
        let signIn: NuvieCommandService.SignIn
        switch provider {
        case "apple":
            guard let apple else { throw NuvieAPIError.validation("Sign in with Apple is not configured on this server", field: "provider") }
            let token = try body.requiredString("token", maxLength: 8192)
            guard let identity = try await apple.verify(token) else {
                throw NuvieAPIError.authenticationRequired("The Apple identity token is invalid, expired or not for this app")
            }
            signIn = try await commands.signIn(Identity(provider: .apple, subject: identity.subject), name: name, email: identity.email)
        case "dev":
            guard devLoginEnabled else { throw NuvieAPIError.validation("The dev provider is only available in demo mode", field: "provider") }
            signIn = try await devSignIn(try body.requiredString("user_identifier", maxLength: 255), name: name)
        default:
            throw NuvieAPIError.validation("provider must be \"apple\" or \"dev\"", field: "provider")
        }
        try await readYourWrites.wait(for: signIn.position)
        let session = try await commands.startSession(for: signIn.userId)
        return try await response(for: signIn.userId, session: session, authenticatedAt: Date())
    }

    func refresh(_ request: Request, context: NuvieRequestContext) async throws -> LoginResponse {
        let body = try await JSONBody.decode(request, context: context, fields: ["refresh_token"])
        guard let grant = try await tokens.grant(fromRefreshToken: try body.requiredString("refresh_token", maxLength: 8192)),
              let tokenId = grant.tokenId
        else { throw NuvieAPIError.authenticationRequired("The refresh token is invalid, expired or signed out; sign in again") }
        let session: NuvieCommandService.SessionGrant?
        do {
            session = try await commands.refreshSession(userId: grant.userId, sessionId: grant.sessionId, tokenId: tokenId)
        } catch is NuvieCommandService.RefreshTokenReused {
            tokens.forget(userId: grant.userId, sessionId: grant.sessionId)
            throw NuvieAPIError(
                .unauthorized, code: "REFRESH_TOKEN_REUSED",
                message: "This refresh token was already used: its session is ended on every device that shared it; sign in again"
            )
        }
        guard let session else { throw NuvieAPIError.authenticationRequired("The refresh token is invalid, expired or signed out; sign in again") }
        return try await response(for: grant.userId, session: session, authenticatedAt: grant.authenticatedAt)
    }

    /// `movielens-N` is demo user N; any other identifier is a dev account, registered on first use.
    private func devSignIn(_ identifier: String, name: String?) async throws -> NuvieCommandService.SignIn {
        if identifier.hasPrefix("movielens-") {
            let demoId = String(identifier.dropFirst("movielens-".count))
            let signIn = try commands.existingUser(Identity(provider: .movielens, subject: demoId))
            guard let signIn else { throw NuvieAPIError.userNotFound("No demo user \(identifier)") }
            return signIn
        }
        return try await commands.signIn(Identity(provider: .dev, subject: identifier), name: name, email: nil)
    }

    private func response(for userId: Int64, session: NuvieCommandService.SessionGrant, authenticatedAt: Date) async throws -> LoginResponse {
        guard let user = try users.user(id: userId) else { throw NuvieAPIError.userNotFound("User with ID \(userId) not found") }
        let pair = try await tokens.issue(
            for: userId, sessionId: session.sessionId, refreshTokenId: session.refreshTokenId, authenticatedAt: authenticatedAt
        )
        return LoginResponse(tokens: pair, user: user)
    }
}
