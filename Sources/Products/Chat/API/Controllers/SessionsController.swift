import ChatCommands
import ChatDomain
import ChatProjections
import Hummingbird
import ProductHosting
import ReadModels

/// `/api/chat/sessions/`: the signed-in user's own conversations.
struct SessionsController: Sendable {
    let commands: ChatCommandService
    let queries: ChatQueries
    let readYourWrites: ReadYourWrites

    static let listLimit = 200

    var endpoints: RouteCollection<ChatSignedInContext> {
        RouteCollection(context: ChatSignedInContext.self)
            .get(use: list)
            .post("new", use: create)
            .patch(":id", use: rename)
    }

    /// A bare array, newest `updated_at` first, at most 200, each with all its messages.
    func list(_ request: Request, context: ChatSignedInContext) async throws -> SessionListJSON {
        SessionListJSON(sessions: try queries.sessions(of: context.userId, limit: Self.listLimit).map(SessionJSON.init))
    }

    /// `{"title"?, "tone"?, "lang"?}` → 201. The tone is stored in snake_case and answered as sent.
    func create(_ request: Request, context: ChatSignedInContext) async throws -> EditedResponse<CreatedSessionJSON> {
        let fields = try await FormFields.json(request, context: context)
        let title = try fields.string("title") ?? ChatRules.defaultTitle
        let tone = try fields.string("tone") ?? "PlainClinical"
        let lang = try fields.string("lang") ?? ChatRules.defaultLanguage
        let eventId = try request.eventId(of: ChatCatalog.self, userId: context.userId, action: "new-session")
        let (sessionId, result) = try await commands.startSession(by: context.userId, title: title, tone: tone, lang: lang, eventId: eventId)
        try await readYourWrites.wait(for: result.position)
        let stored = try await session(sessionId, of: context.userId)
        return EditedResponse(status: .created, response: CreatedSessionJSON(
            id: sessionId, title: stored.title, created_at: DjangoTime.format(microseconds: stored.createdAt), tone: tone, language: stored.lang
        ))
    }

    /// `PATCH /api/chat/sessions/<id>/` `{"title"}` → the session as listed.
    func rename(_ request: Request, context: ChatSignedInContext) async throws -> SessionJSON {
        let sessionId = try Self.sessionId(context)
        let fields = try await FormFields.json(request, context: context)
        guard let title = try fields.string("title") else { throw ChatAPIError.invalid("title", "is required") }
        let result = try await commands.rename(sessionId, to: title, by: context.userId)
        try await readYourWrites.wait(for: result.position)
        return SessionJSON(try await session(sessionId, of: context.userId))
    }

    private func session(_ sessionId: Int64, of userId: Int64) async throws -> StoredSession {
        guard let stored = try queries.session(sessionId, of: userId) else { throw ChatDomainError.sessionNotFound(sessionId: sessionId) }
        return stored
    }

    private static func sessionId(_ context: ChatSignedInContext) throws -> Int64 {
        guard let raw = context.parameters.get("id"), let sessionId = Int64(raw), sessionId > 0 else {
            throw ChatAPIError(.notFound, "session_not_found", "Session not found", detail: "A session id is a positive whole number")
        }
        return sessionId
    }
}
