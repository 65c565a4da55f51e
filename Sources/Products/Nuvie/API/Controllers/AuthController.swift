import ReadModels
import AppleSignIn
import NuvieCommands
import NuvieDomain
import Hummingbird
import NuvieProjections

/// `POST /auth/login` (providers `apple`, and `dev` in demo mode) and `POST /auth/refresh`.
struct AuthController: Sendable {
    let commands: CommandService
    let users: UserQueries
    let tokens: TokenService
    let apple: AppleIdentityVerifier?
    let devLoginEnabled: Bool
    let readYourWrites: ReadYourWrites

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .post("login", use: login)
            .post("refresh", use: refresh)
    }

    func login(_ request: Request, context: AppRequestContext) async throws -> LoginResponse {
        let body = try await JSONBody.decode(request, context: context, fields: ["provider", "token", "user_identifier", "name"])
        let provider = try body.requiredString("provider", maxLength: 32)
        let name = try body.string("name", maxLength: 100)
        let signIn: CommandService.SignIn
        switch provider {
        case "apple":
            guard let apple else { throw APIError.validation("Sign in with Apple is not configured on this server", field: "provider") }
            let token = try body.requiredString("token", maxLength: 8192)
            guard let identity = try await apple.verify(token) else {
                throw APIError.authenticationRequired("The Apple identity token is invalid, expired or not for this app")
            }
            signIn = try await commands.signIn(Identity(provider: .apple, subject: identity.subject), name: name, email: identity.email)
        case "dev":
            guard devLoginEnabled else { throw APIError.validation("The dev provider is only available in demo mode", field: "provider") }
            signIn = try await devSignIn(try body.requiredString("user_identifier", maxLength: 255), name: name)
        default:
            throw APIError.validation("provider must be \"apple\" or \"dev\"", field: "provider")
        }
        try await readYourWrites.wait(for: signIn.position)
        return try await response(for: signIn.userId)
    }

    func refresh(_ request: Request, context: AppRequestContext) async throws -> LoginResponse {
        let body = try await JSONBody.decode(request, context: context, fields: ["refresh_token"])
        guard let userId = try await tokens.userId(fromRefreshToken: try body.requiredString("refresh_token", maxLength: 8192)) else {
            throw APIError.authenticationRequired("The refresh token is invalid or expired; sign in again")
        }
        return try await response(for: userId)
    }

    /// `movielens-N` is demo user N; any other identifier is a dev account, registered on first use.
    private func devSignIn(_ identifier: String, name: String?) async throws -> CommandService.SignIn {
        if identifier.hasPrefix("movielens-") {
            let demoId = String(identifier.dropFirst("movielens-".count))
            let signIn = try commands.existingUser(Identity(provider: .movielens, subject: demoId))
            guard let signIn else { throw APIError.userNotFound("No demo user \(identifier)") }
            return signIn
        }
        return try await commands.signIn(Identity(provider: .dev, subject: identifier), name: name, email: nil)
    }

    private func response(for userId: Int64) async throws -> LoginResponse {
        guard let user = try users.user(id: userId) else { throw APIError.userNotFound("User with ID \(userId) not found") }
        return LoginResponse(tokens: try await tokens.issue(for: userId), user: user)
    }
}
