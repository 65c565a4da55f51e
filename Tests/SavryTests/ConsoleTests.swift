import Foundation
import HTTPTypes
import Testing

/// The operator console's gate, on Savry's routes as served (every product mounts the same console
/// through `addEngineRoutes`): no page without a session from the operator token, a session cookie
/// no script can read, every form checked for its session's CSRF token, no script allowed to run.
@Suite struct ConsoleTests {
    static let pages = ["/admin/console", "/admin/console/events", "/admin/console/events/1", "/admin/console/stream?id=user-1",
                        "/admin/console/users?id=1", "/admin/console/replay", "/admin/console/backup"]

    @Test func noPageOpensWithoutASignInAndAUserTokenOpensNone() async throws {
        try await SavryLiveServer.run { server in
            let token = try await server.client.token("ana")
            for page in Self.pages {
                for headers: HTTPFields in [[:], [.authorization: "Bearer \(token)"], [.adminToken: SavryLiveServer.adminToken]] {
                    let reply = try await server.client.send(.get, page, headers: headers)
                    #expect(reply.status == .found && reply.headers[.location] == "/admin/console/sign-in", "\(page) \(headers)")
                }
            }
            let wrong = try await Console.signIn(server.client, token: token)
            #expect(wrong.status == .unauthorized && wrong.sessionCookie == nil)
        }
    }

    @Test func aSessionCookieNoScriptReadsAndPagesThatRunNoScript() async throws {
        try await SavryLiveServer.run { server in
            _ = try await server.client.token("ana")
            let signedIn = try await Console.signIn(server.client, token: SavryLiveServer.adminToken, headers: [.forwardedProto: "https"])
            #expect(signedIn.status == .seeOther)
            let cookie = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("console_session=") })
            for flag in ["HttpOnly", "SameSite=Strict", "Secure", "Path=/admin/console", "Max-Age=28800"] { #expect(cookie.contains(flag), "\(flag)") }
            let session = try #require(signedIn.sessionCookie)
            for page in Self.pages {
                let reply = try await server.client.send(.get, page, headers: [.cookie: session])
                #expect(reply.status == .ok, "\(page): \(reply.text.prefix(300))")
                #expect(reply.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'; style-src 'self'") == true)
                #expect(!reply.text.contains("<script"), "\(page)")
            }
        }
    }

    @Test func aFormWithoutItsSessionsCSRFTokenChangesNothing() async throws {
        try await SavryLiveServer.run { server in
            let ana = try #require(try await server.tokens.grant(from: try await server.client.token("ana"))?.userId)
            let session = try #require(try await Console.signIn(server.client, token: SavryLiveServer.adminToken).sessionCookie)
            let erase = { (csrf: String, confirm: Int64) in
                try await Console.post(server.client, "/admin/console/users/erase", ["csrf": csrf, "id": "\(ana)", "confirm": "\(confirm)"], session: session)
            }
            let events = { try await server.client.admin(.get, "/admin/users/\(ana)/audit").json["totalCount"] as? Int }
            let before = try #require(try await events())
            #expect(try await erase("forged", ana).status == .forbidden)
            let csrf = try await Console.csrf(server.client, session: session)
            #expect(try await erase(csrf, ana + 1).status == .badRequest)
            #expect(try await events() == before)
            let erased = try await erase(csrf, ana)
            #expect(erased.status == .ok && erased.text.contains("User \(ana) is erased"))
            #expect(try await events() == before + 1)
        }
    }

    /// Backing up twice within a second (a double click, two operators) makes two backups, not a 500.
    @Test func twoBackupsInOneSecondAreTwoBackups() async throws {
        try await SavryLiveServer.run { server in
            _ = try await server.client.token("ana")
            let session = try #require(try await Console.signIn(server.client, token: SavryLiveServer.adminToken).sessionCookie)
            let csrf = try await Console.csrf(server.client, session: session)
            for _ in 0..<2 {
                let reply = try await Console.post(server.client, "/admin/console/backup", ["csrf": csrf], session: session)
                #expect(reply.status == .ok, "\(reply.text.prefix(300))")
            }
            let backups = server.storage.stores.directory.root.appendingPathComponent("backups").path
            #expect(try FileManager.default.contentsOfDirectory(atPath: backups).count == 2)
        }
    }

    /// As `as-of --serve` serves a past state: the console shows it, and no action changes anything.
    @Test func aServerShowingThePastTakesNoActionButSignOut() async throws {
        let storage = try await SavryStorage()
        let ana = try await SavryLiveServer.run(storage: storage) { server in
            try #require(try await server.tokens.grant(from: try await server.client.token("ana"))?.userId)
        }
        try await SavryLiveServer.run(storage: storage, readOnly: true) { server in
            let session = try #require(try await Console.signIn(server.client, token: SavryLiveServer.adminToken).sessionCookie)
            let csrf = try await Console.csrf(server.client, session: session)
            let events = { try await server.client.admin(.get, "/admin/users/\(ana)/audit").json["totalCount"] as? Int }
            let before = try await events()
            for (uri, fields) in [("/admin/console/users/erase", ["id": "\(ana)", "confirm": "\(ana)"]), ("/admin/console/replay", [:]), ("/admin/console/backup", [:])] {
                let reply = try await Console.post(server.client, uri, ["csrf": csrf].merging(fields) { $1 }, session: session)
                #expect(reply.status == .methodNotAllowed && reply.text.contains("read-only"), "\(uri)")
            }
            #expect(try await events() == before)
            #expect(!FileManager.default.fileExists(atPath: storage.stores.directory.root.appendingPathComponent("backups").path))
            let out = try await Console.post(server.client, "/admin/console/sign-out", ["csrf": csrf], session: session)
            #expect(out.status == .seeOther)
        }
    }

    @Test func signingOutEndsTheSession() async throws {
        try await SavryLiveServer.run { server in
            let session = try #require(try await Console.signIn(server.client, token: SavryLiveServer.adminToken).sessionCookie)
            let csrf = try await Console.csrf(server.client, session: session)
            let out = try await Console.post(server.client, "/admin/console/sign-out", ["csrf": csrf], session: session)
            #expect(out.status == .seeOther && out.headers[values: .setCookie].contains { $0.hasPrefix("console_session=;") && $0.contains("Max-Age=0") })
            #expect(try await server.client.send(.get, "/admin/console", headers: [.cookie: session]).status == .found)
        }
    }
}

/// A browser's part in the console's sign-in, by hand.
enum Console {
    static func signIn(_ client: SavryClient, token: String, headers: HTTPFields = [:]) async throws -> SavryClient.Reply {
        let form = try await client.send(.get, "/admin/console/sign-in")
        let preCookie = try #require(form.headers[values: .setCookie].first { $0.hasPrefix("console_sign_in=") }).prefix { $0 != ";" }
        var headers = headers
        headers[.cookie] = String(preCookie)
        return try await post(client, "/admin/console/sign-in", ["csrf": try field("csrf", in: form.text), "token": token], headers: headers)
    }

    static func csrf(_ client: SavryClient, session: String) async throws -> String {
        try field("csrf", in: try await client.send(.get, "/admin/console/replay", headers: [.cookie: session]).text)
    }

    static func post(_ client: SavryClient, _ uri: String, _ fields: [String: String], session: String? = nil, headers: HTTPFields = [:]) async throws -> SavryClient.Reply {
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        if let session { headers[.cookie] = session }
        let body = fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        return try await client.send(.post, uri, body: body, headers: headers)
    }

    static func field(_ name: String, in html: String) throws -> String {
        let marker = "name=\"\(name)\" value=\""
        let start = try #require(html.range(of: marker)).upperBound
        return String(html[start...].prefix { $0 != "\"" })
    }
}

extension SavryClient.Reply {
    /// `console_session=…` as a `Cookie` header sends it, when this answer set one.
    var sessionCookie: String? {
        headers[values: .setCookie].first { $0.hasPrefix("console_session=") && !$0.hasPrefix("console_session=;") }.map { String($0.prefix { $0 != ";" }) }
    }
}

extension HTTPField.Name {
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
