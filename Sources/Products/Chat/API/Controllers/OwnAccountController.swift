import ChatCommands
import ChatDomain
import ChatProjections
import Foundation
import HTTPServing
import Hummingbird
import ProductHosting

/// `/api/account/`: the signed-in user's own account, beyond the Django contract (README "Chat"):
/// an app that lets people sign up must let them delete the account in the app (App Store Review
/// Guideline 5.1.1(v)), and GDPR Art. 15 and 20 give them a copy of what is held.
///
/// `DELETE /api/account/ {"password"}` erases it once the password is entered again (a token alone,
/// left on a shared device, is not enough): `user-erased`, the data key and the uploads destroyed,
/// every token dead. 204 once the read models show it. A wrong password counts against the login
/// throttle as a failed login does.
///
/// `GET /api/account/export/` is the engine's streamed export, whose `account` is the user and their
/// sessions with every message, as the API shows them.
struct OwnAccountController: Sendable {
    let accounts: UserAccounts<ChatProduct>
    let commands: ChatCommandService
    let queries: ChatQueries
    let throttle: LoginThrottle

    var endpoints: RouteCollection<ChatSignedInContext> {
        RouteCollection(context: ChatSignedInContext.self)
            .delete(use: delete)
            .get("export", use: export)
    }

    func delete(_ request: Request, context: ChatSignedInContext) async throws -> Response {
        let fields = try await FormFields.json(request, context: context)
        guard let password = try fields.string("password"), !password.isEmpty else { throw ChatAPIError.invalid("password", "is required to delete the account") }
        guard let account = try commands.account(context.userId) else { throw ChatDomainError.userNotFound(userId: context.userId) }
        _ = try await throttle.attempt(email: account.email, address: context.remoteAddress?.clientNetwork) {
            try await commands.authenticate(email: account.email, password: password)
        }
        do {
            _ = try await accounts.erase(context.userId, initiator: .user)
        } catch UserErasureFailure.alreadyErased, UserErasureFailure.unknownUser {
            throw ChatAPIError.invalidToken("This token's user no longer exists")
        }
        return Response(status: .noContent)
    }

    func export(_ request: Request, context: ChatSignedInContext) async throws -> Response {
        guard let account = try commands.account(context.userId) else { throw ChatDomainError.userNotFound(userId: context.userId) }
        let sessions = try queries.sessions(of: context.userId, limit: .max).map(SessionJSON.init)
        let summary = AccountExportJSON(user: AccountJSON(account), session_count: sessions.count, sessions: sessions)
        return accounts.export.response(for: context.userId, account: try ChatContract.responseEncoder().encode(summary), timestamp: DjangoTime.format)
    }
}

/// The export's `account`: the user as login answers it (without a token), and every session.
struct AccountExportJSON: Encodable {
    let user: AccountJSON
    let session_count: Int
    let sessions: [SessionJSON]
}
