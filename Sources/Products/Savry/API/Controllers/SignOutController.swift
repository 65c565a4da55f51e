import Hummingbird
import ReadModels
import SavryCommands

/// `DELETE /api/app/auth`: signs out of the token the request came with (beyond the contract, which
/// has no sign-out: README "Savry"). A `signed-out` event names the token; from the answer on (204,
/// once the read models show it) that token is a 401, and the user's other tokens still work.
struct SignOutController: Sendable {
    let commands: SavryCommandService
    let readYourWrites: ReadYourWrites

    func signOut(_ request: Request, context: SavrySignedInContext) async throws -> Response {
        let result = try await commands.signOut(context.userId, tokenId: context.grant.tokenId, expiresAt: context.grant.expiresAt)
        try await readYourWrites.wait(for: result.position)
        return Response(status: .noContent)
    }
}
