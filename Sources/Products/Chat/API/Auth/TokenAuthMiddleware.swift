import ChatCommands
import ChatProjections
import Hummingbird
import ReadModels

/// Requires `Authorization: Token <40 hex digits>` naming a live token of an active user, as DRF's
/// `TokenAuthentication` does, and puts the user in the context; anything else is a 401 before any
/// handler runs. Tokens are looked up by their SHA-256; on a node of a shared log, one not found is
/// looked up again once the node holds the log as it is now (a login through another node), and a
/// 503 answers when the node cannot tell (`ReadYourWrites.found`).
struct TokenAuthMiddleware: RouterMiddleware {
    typealias Context = ChatRequestContext
    let queries: ChatQueries
    let commands: ChatCommandService
    let readYourWrites: ReadYourWrites

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { throw ChatAPIError.notAuthenticated }
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "token" else {
            throw ChatAPIError.invalidToken("Send the header as Authorization: Token <token>")
        }
        let token = String(parts[1])
        guard token.utf8.count == 40, token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw ChatAPIError.invalidToken("A token is 40 lowercase hex digits")
        }
        let hash = ChatCommandService.tokenHash(token)
        let holder = try await readYourWrites.found { try queries.userId(ofTokenHash: hash).flatMap { try commands.isActive($0) ? $0 : nil } }
        guard let userId = holder else {
            throw ChatAPIError.invalidToken("This token was revoked, or never issued; log in again")
        }
        var context = context
        context.grant = .init(userId: userId, tokenHash: hash)
        context.logger[metadataKey: "user.id"] = .stringConvertible(userId)
        return try await next(request, context)
    }
}
