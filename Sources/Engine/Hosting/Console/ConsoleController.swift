import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import ReadModels

/// The operator console at `/admin/console`: the operator endpoints' data and actions as HTML pages,
/// for every product, behind a sign-in with the operator token (a session cookie; a CSRF token on
/// every form). Served only where `/admin` is: when the operator token is configured.
struct ConsoleController<Context: RequestContext>: Sendable {
    let sessions: ConsoleSessions
    let pages: ConsolePages
    let audit: AuditTrail
    let replays: ReplayCoordinator
    let health: HealthController<Context>
    let directory: DataDirectory
    let tokenSetting: String
    let readOnly: Bool
    let backUp: @Sendable (URL) throws -> UInt64
    let erase: @Sendable (Int64) async throws -> UInt64

    func register(on router: Router<Context>) {
        router.group("\(ConsoleSessions.path)")
            .get("sign-in", use: signInForm)
            .post("sign-in", use: signIn)
            .get("console.css") { _, _ in ConsolePages.asset(ConsoleStyle.css, type: "text/css; charset=utf-8") }
            .get("icon.svg") { _, _ in ConsolePages.asset(ConsoleStyle.icon, type: "image/svg+xml") }
        router.group("\(ConsoleSessions.path)", context: ConsoleContext<Context>.self)
            .add(middleware: ConsoleSessionMiddleware(sessions: sessions, pages: pages, readOnly: readOnly))
            .get(use: overview)
            .post("sign-out", use: signOut)
            .get("events", use: events)
            .get("events/:position", use: event)
            .get("stream", use: stream)
            .get("users", use: user)
            .post("users/erase", use: eraseUser)
            .get("replay", use: replay)
            .post("replay", use: startReplay)
            .get("backup", use: backup)
            .post("backup", use: startBackup)
    }

    func signInForm(_ request: Request, context: Context) async throws -> Response {
        signInPage(request, message: nil, status: .ok)
    }

    func signIn(_ request: Request, context: Context) async throws -> Response {
        let form = try await ConsoleForm(request)
        guard let expected = request.cookies[ConsoleSessions.signInCookie]?.value, ConsoleSessions.same(form["csrf"], expected) else {
            return signInPage(request, message: "The sign-in form was out of date. Try again.", status: .forbidden)
        }
        guard let (id, _) = sessions.signIn(with: form["token"] ?? "") else {
            return signInPage(request, message: "That is not the operator token.", status: .unauthorized)
        }
        var response = Response.redirect(to: ConsoleSessions.path, type: .normal)
        response.headers.append(HTTPField(name: .setCookie, value: ConsoleSessions.cookie(ConsoleSessions.cookie, id, maxAge: Int(sessions.lifetime), request: request)))
        response.headers.append(HTTPField(name: .setCookie, value: ConsoleSessions.cookie(ConsoleSessions.signInCookie, "", maxAge: 0, request: request)))
        return response
    }

    func signOut(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        sessions.signOut(context.sessionId)
        var response = Response.redirect(to: "\(ConsoleSessions.path)/sign-in", type: .normal)
        response.headers.append(HTTPField(name: .setCookie, value: ConsoleSessions.cookie(ConsoleSessions.cookie, "", maxAge: 0, request: request)))
        return response
    }

    private func signInPage(_ request: Request, message: String?, status: HTTPResponse.Status) -> Response {
        let csrf = ConsoleSessions.randomToken()
        return pages.page(
            "sign-in", title: "Sign in", ["csrf": csrf, "message": message, "tokenSetting": tokenSetting].compactMapValues { $0 }, session: nil, status: status,
            cookies: [ConsoleSessions.cookie(ConsoleSessions.signInCookie, csrf, maxAge: 900, request: request)]
        )
    }

    func overview(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        let now = try health.current()
        let free = (try? FileManager.default.attributesOfFileSystem(forPath: directory.root.path)[.systemFreeSize] as? NSNumber)?.int64Value
        let errors = RequestErrorCount.read(health.registry?.emitToString() ?? "")
        let values: [String: Any?] = [
            "status": now.status, "logHead": now.logHeadPosition, "backend": now.log.backend, "location": now.log.location,
            "shared": now.log.backend != "embedded", "behind": now.log.behind, "logFailure": now.log.failure,
            "revision": health.revision(), "diskFree": free.map { ByteCountFormatter.string(fromByteCount: $0, countStyle: .file) } ?? "unknown",
            "projections": now.projections.map(ProjectionRow.init), "storageFull": now.storageFull.map { ["store": $0.store, "since": $0.since, "error": $0.error] },
            "hasStorageFull": !now.storageFull.isEmpty, "sections": now.sectionsAsJSON(),
            "errors": errors, "hasErrors": !errors.isEmpty, "refreshedAt": Date().formatted(.iso8601),
        ]
        return pages.page("overview", title: "Overview", values.compactMapValues { $0 }, session: context.session, refresh: 5)
    }
}

/// One projection's line on the overview.
struct ProjectionRow {
    var name: String
    var version: Int
    var position: UInt64
    var lag: UInt64
    var state: String
    var failure: String?
    var failedPosition: UInt64?

    init(_ health: ProjectionHealth) {
        name = health.name
        version = health.version
        position = health.position
        lag = health.lag
        state = health.failedPosition != nil ? "failing" : health.lag > 0 ? "behind" : "current"
        failure = health.failure
        failedPosition = health.failedPosition
    }
}

/// Requests answered with an error status (4xx, 5xx) since the server started, by route and status,
/// from the metrics' `hb_requests` counters.
struct RequestErrorCount {
    var route: String
    var method: String
    var status: String
    var count: String

    static func read(_ metrics: String) -> [RequestErrorCount] {
        metrics.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("hb_requests{"), let close = line.lastIndex(of: "}") else { return nil }
            let labels = Dictionary(
                line[line.index(line.startIndex, offsetBy: 12)..<close].split(separator: ",").compactMap { pair -> (String, String)? in
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2 else { return nil }
                    return (String(parts[0]), String(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))))
                }, uniquingKeysWith: { first, _ in first }
            )
            let count = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
            guard count != "0", let status = labels["http_response_status_code"], let code = Int(status), code >= 400 else { return nil }
            return RequestErrorCount(route: labels["http_route"] ?? "?", method: labels["http_request_method"] ?? "?", status: status, count: count)
        }
    }
}
