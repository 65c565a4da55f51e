import ChatCommands
import ChatDomain
import HTTPServing
import Hummingbird
import ReadModels

/// `POST /api/login/`, `POST /api/signup/` (open) and `POST /api/logout/` (behind a token).
struct AccountController: Sendable {
    let commands: ChatCommandService
    let throttle: LoginThrottle
    let readYourWrites: ReadYourWrites

    /// `{"email", "password"}` → the user payload and a new token. Emails match in any case. A wrong
    /// password and an unknown email get the same 400, in about the same time.
    func login(_ request: Request, context: ChatRequestContext) async throws -> UserPayload {
        let fields = try await FormFields.json(request, context: context)
        let email = try fields.string("email") ?? "", password = try fields.string("password") ?? ""
        guard !email.isEmpty, !password.isEmpty else { throw ChatAPIError.invalid(email.isEmpty ? "email" : "password", "is required") }
        let address = context.remoteAddress?.clientNetwork
        let account = try await throttle.attempt(email: email, address: address) {
            try await commands.authenticate(email: email, password: password)
        }
        return try await tokenPayload(for: account.userId)
    }

    /// `{"email", "password", "first_name"?, "last_name"?, "username"?}` → 201, the user payload and a
    /// token: the new user is logged in.
    func signup(_ request: Request, context: ChatRequestContext) async throws -> EditedResponse<UserPayload> {
        let fields = try await FormFields.json(request, context: context)
        guard let email = try fields.string("email"), !email.isEmpty else { throw ChatAPIError.invalid("email", "is required") }
        guard let password = try fields.string("password"), !password.isEmpty else { throw ChatAPIError.invalid("password", "is required") }
        let userId = try await commands.signUp(
            email: email, password: password, username: try fields.string("username"),
            firstName: try fields.string("first_name"), lastName: try fields.string("last_name")
        )
        // The account exists from here on: a 503 now would send the client back to an `email_taken`.
        return EditedResponse(status: .created, response: try await tokenPayload(for: userId, answerWhileFolding: true))
    }

    /// Revokes the token the request came with; other tokens of the user's stay. 204.
    func logout(_ request: Request, context: ChatSignedInContext) async throws -> Response {
        let result = try await commands.revokeToken(hash: context.grant.tokenHash, of: context.userId)
        try await readYourWrites.wait(for: result.position)
        return Response(status: .noContent)
    }

    /// A new token, usable once this returns; or, `answerWhileFolding`, as soon as the read models
    /// catch up (they are rarely seconds behind).
    private func tokenPayload(for userId: Int64, answerWhileFolding: Bool = false) async throws -> UserPayload {
        let (token, result) = try await commands.issueToken(for: userId)
        do {
            try await readYourWrites.wait(for: result.position)
        } catch where answerWhileFolding {}
        guard let account = try commands.account(userId) else { throw ChatDomainError.userNotFound(userId: userId) }
        return UserPayload(account, token: token)
    }
}
