import Foundation
import Hummingbird

/// The context of the console's pages behind sign-in: the session `ConsoleSessionMiddleware` let
/// through, and the form a `POST` sent, read once.
struct ConsoleContext<Parent: RequestContext>: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    var sessionId = ""
    var session = ConsoleSessions.Session(csrf: "", expires: .distantPast)
    var form = ConsoleForm()

    init(context: Parent) {
        coreContext = context.coreContext
    }
}

/// The console's pages other than sign-in: without a live session, to the sign-in page; a form sent
/// without its session's CSRF token is refused and changes nothing, and so is every action but
/// signing out on a server that shows a past state (`readOnly`).
struct ConsoleSessionMiddleware<Parent: RequestContext>: RouterMiddleware {
    typealias Context = ConsoleContext<Parent>
    let sessions: ConsoleSessions
    let pages: ConsolePages
    let readOnly: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let (id, session) = sessions.session(for: request) else {
            return Response.redirect(to: "\(ConsoleSessions.path)/sign-in", type: .found)
        }
        var context = context
        context.sessionId = id
        context.session = session
        guard request.method == .post else { return try await next(request, context) }
        context.form = try await ConsoleForm(request)
        guard ConsoleSessions.same(context.form["csrf"], session.csrf) else {
            return pages.problem(.forbidden, "This form is out of date or came from another page. Reload the page and try again.", session: session)
        }
        if readOnly && !request.uri.path.hasSuffix("/sign-out") {
            return pages.problem(.methodNotAllowed, "This server shows a past state, read-only: nothing can be changed here.", session: session)
        }
        return try await next(request, context)
    }
}

/// An `application/x-www-form-urlencoded` body, as the console's forms send it.
struct ConsoleForm: Sendable {
    private var fields: [(String, String)] = []

    init() {}

    init(_ request: Request) async throws {
        let body = try await request.body.collect(atMost: 16 << 10)
        fields = String(buffer: body).split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decoded(parts[0]), parts.count > 1 ? Self.decoded(parts[1]) : "")
        }
    }

    private static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    subscript(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }

    func all(_ name: String) -> [String] { fields.filter { $0.0 == name }.map(\.1) }
}
