import AppleSignIn
import Hummingbird
import SavryCommands
import SavryDomain

/// `POST /api/app/auth`: `{"identityToken": "<Apple identity token>"}`, or in demo mode
/// `{"devUser": "<name>"}`; exactly one of the two. The identity's user, registered on first
/// sign-in, gets `{"token": "<JWT>"}`.
struct AuthController: Sendable {
    let commands: SavryCommandService
    let tokens: SavryTokens
    let apple: AppleIdentityVerifier?
    let devLoginEnabled: Bool

    func signIn(_ request: Request, context: SavryRequestContext) async throws -> TokenResponse {
        let body = try await RequestBody.decode(request, context: context, fields: devLoginEnabled ? ["identityToken", "devUser"] : ["identityToken"])
        let identityToken = try body.notNull("identityToken", body.string("identityToken"))
        let devUser = try body.notNull("devUser", body.string("devUser"))
        let identity: SavryIdentity
        switch (identityToken, devUser) {
        case (let token?, nil):
            guard let apple else { throw SavryAPIError.badRequest("identityToken: Sign in with Apple is not configured on this server") }
            guard token.utf8.count <= 8192, let verified = try await apple.verify(token) else {
                throw SavryAPIError.unauthorized("Unauthorized: the Apple identity token is invalid, expired or not for this app")
            }
            identity = SavryIdentity(provider: .apple, subject: verified.subject)
        case (nil, let name?):
            guard Self.isDevUserName(name) else { throw SavryAPIError.badRequest("devUser must be 1–64 letters, digits, '.', '_' or '-'") }
            identity = SavryIdentity(provider: .dev, subject: name)
        default:
            throw SavryAPIError.badRequest(devLoginEnabled ? "Send exactly one of identityToken and devUser" : "identityToken is required")
        }
        let signIn = try await commands.signIn(identity)
        return TokenResponse(token: try await tokens.issue(for: signIn.userId))
    }

    private static func isDevUserName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
    }
}
