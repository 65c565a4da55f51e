import EventLog
import HTTPServing
import Hummingbird
import ReadModels

/// Reads `Authorization: Bearer …`. A valid access token of a live session sets `context.grant`; a
/// present but invalid or expired one, or one whose session ended or whose user is erased, sets
/// `context.credentialRefusal`. Routes that need a user are mounted with `NuvieSignedInContext`, which
/// answers a request without a grant 401; open routes serve it: an app that sends its stored token
/// with every request must still be able to refresh it, or sign in again, once it has expired. A
/// token this node cannot check yet (a node of a shared log, behind it or cut off from it) is that
/// refusal too: a 503 on routes that need a user, nothing on open ones.
struct NuvieAuthMiddleware: RouterMiddleware {
    typealias Context = NuvieRequestContext
    let tokens: NuvieTokens

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        var context = context
        do {
            if let token = BearerToken.of(header), let grant = try await tokens.grant(fromAccessToken: token) {
                context.grant = grant
                context.logger[metadataKey: "user.id"] = .stringConvertible(grant.userId)
            } else {
                context.credentialRefusal = NuvieAPIError.tokenRefused
            }
        } catch let error where error is SharedLogUnreachable || error is NotCaughtUp {
            context.credentialRefusal = error
        }
        return try await next(request, context)
    }
}
