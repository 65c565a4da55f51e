import Foundation
import ChatProjections
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// The chat product through its real `chat` binary: the engine's operator tools (backup with the
/// uploads, verify, audit, as-of) work on its log. Its kill cycles are in `KillCycleTests`.
@Suite(.timeLimit(.minutes(5))) struct ChatEndToEndTests {
    /// Demo logins hash at OWASP's count; accounts made here at the lowest the server accepts.
    /// And a misspelt setting, which start-up names and ignores.
    static let environment = ["CHAT_PASSWORD_ITERATIONS": "100000", "CHAT_RATE_LIMIT_PER_MINUTE": "0", "CHAT_CONTEXT_TOKEN": "1"]

    static func serve(_ dataDirectory: URL) async throws -> ServerProcess {
        try await ServerProcess.start("chat", outputDirectory: dataDirectory.deletingLastPathComponent(), environment: environment) { port in
            ["serve", "--data-dir", dataDirectory.path, "--port", "\(port)", "--demo", "--log-level", "warning"]
        }
    }

    static func login(_ server: ServerProcess, _ email: String, _ password: String) async throws -> [String: String] {
        let reply = try await server.post("/api/login/", #"{"email":"\#(email)","password":"\#(password)"}"#)
        let token = try #require(reply.json["token"] as? String, "login answered \(reply.status): \(reply.text)")
        return ["Authorization": "Token \(token)"]
    }

    /// A Django export holding an account that cannot be kept here (a social sign-in's unusable
    /// password) imports the others, names that one, and exits 1; it used to stop at it.
    @Test func anImportNamesTheAccountsItCannotKeepAndImportsTheRest() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data"), dump = directory.url.appendingPathComponent("users.json")
        let hash = "pbkdf2_sha256$1000$abcdefgh$yalS5uWXJ9EhbBQk0M6SbMnJngMCIe/Okx7VDGjnC7s="
        let users = [("ann@example.com", hash), ("social@example.com", "!unusable"), ("cy@example.com", hash)].enumerated().map { index, user in
            #"{"model":"auth.user","pk":\#(index + 1),"fields":{"password":"\#(user.1)","email":"\#(user.0)","username":"u\#(index)","is_active":true}}"#
        }
        try Data("[\(users.joined(separator: ","))]".utf8).write(to: dump)
        let key = ["CHAT_MASTER_KEY": Data(repeating: 7, count: 32).base64EncodedString()]
        let run = try await runProduct("chat", ["import-django-users", dump.path, "--data-dir", data.path], environment: key)
        #expect(run.status == 1 && run.output.contains("imported 2 accounts") && run.output.contains("social@example.com: password"), "\(run.output)")
        let again = try await runProduct("chat", ["import-django-users", dump.path, "--data-dir", data.path], environment: key)
        #expect(again.output.contains("imported 0 accounts; skipped 2"), "\(again.output)")
    }

    @Test func aBackupCarriesTheUploadsAndTheOperatorToolsReadTheLog() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let server = try await Self.serve(data)
        #expect(server.everythingSaid().contains("variable=CHAT_CONTEXT_TOKEN"), "\(server.everythingSaid())")
        let signup = try await server.post("/api/signup/", #"{"email":"ops@example.com","password":"long enough pass"}"#)
        #expect(signup.status == 201, "\(signup.text)")
        let auth = ["Authorization": "Token \(try #require(signup.json["token"] as? String))"]
        let first = try await server.post("/api/send-chat/", #"{"message":"first question"}"#, headers: auth)
        let sessionId = try #require(first.json["session_id"] as? Int)
        let headAfterFirst = try #require(try await server.get("/health").json["logHeadPosition"] as? Int)
        #expect(try await server.post("/api/send-chat/", #"{"message":"second question","session_id":\#(sessionId)}"#, headers: auth).status == 200)
        let uploads = data.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: uploads.appendingPathComponent("99"), withIntermediateDirectories: true)
        try Data("sealed bytes stand-in".utf8).write(to: uploads.appendingPathComponent("99/" + String(repeating: "0", count: 64)))

        let backup = directory.url.appendingPathComponent("backup")
        let made = try await runProduct("chat", ["backup", backup.path, "--data-dir", data.path])
        #expect(made.status == 0, "\(made.output)")
        #expect(FileManager.default.fileExists(atPath: backup.appendingPathComponent("files/99/" + String(repeating: "0", count: 64)).path))

        let audit = try await runProduct("chat", ["audit", "--stream", "session-\(sessionId)", "--format", "json", "--data-dir", data.path])
        let types = audit.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.map { $0["type"] as? String }
        #expect(types == ["session-started", "user-message-sent", "assistant-replied", "user-message-sent", "assistant-replied"], "\(audit.output)")
        #expect(!audit.output.contains("question"), "the audit shows what happened, not what was written")

        let then = try await runProduct("chat", ["as-of", "--position", "\(headAfterFirst)", "--user", "\(try #require(signup.json["id"] as? Int))", "--data-dir", data.path])
        #expect(then.status == 0 && then.output.contains("first question") && !then.output.contains("second question"), "\(then.output)")

        // The whole API as it was then, read-only, beside the live server and with its tokens.
        let pastDirectory = directory.url.appendingPathComponent("past")
        let past = try await ServerProcess.start("chat", outputDirectory: directory.url, environment: Self.environment) { port in
            ["as-of", "--data-dir", data.path, "--position", "\(headAfterFirst)", "--serve", "\(port)", "--output", pastDirectory.path, "--log-level", "warning"]
        }
        defer { past.stopWhenLeaving() }
        #expect(try await past.get("/health").json["logHeadPosition"] as? Int == headAfterFirst)
        let sessions = try await past.get("/api/chat/sessions/", headers: auth)
        #expect(sessions.status == 200 && sessions.text.contains("first question") && !sessions.text.contains("second question"), "\(sessions.text)")
        let refused = try await past.post("/api/send-chat/", #"{"message":"third question"}"#, headers: auth)
        #expect(refused.status == 405 && refused.json["error"] as? String == "read_only", "\(refused.status) \(refused.text)")
        // An upload is refused before anything is stored: the past state's directory gains no file.
        let files = pastDirectory.appendingPathComponent("files")
        let filesBefore = FileManager.default.subpaths(atPath: files.path) ?? []
        let form = "--B\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nwith notes\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"files[]\"; filename=\"notes.txt\"\r\nContent-Type: text/plain\r\n\r\nnew notes\r\n--B--\r\n"
        let upload = try await past.post("/api/send-chat/", form, headers: auth.merging(["Content-Type": "multipart/form-data; boundary=B"]) { $1 })
        #expect(upload.status == 405 && upload.json["error"] as? String == "read_only", "\(upload.status) \(upload.text)")
        #expect((FileManager.default.subpaths(atPath: files.path) ?? []) == filesBefore, "an upload to the past state was stored")
        #expect(try await past.get("/health").json["logHeadPosition"] as? Int == headAfterFirst)
        #expect(try await server.get("/api/chat/sessions/", headers: auth).text.contains("second question"))
        await server.stop()
    }
}

/// Two writers send messages as one user, each in a session of its own per cycle; every acknowledged
/// message must be in its session.
final class ChatMessageWrites: KillCycleWorkload {
    typealias Product = ChatProduct
    let product = "chat"
    private let auth = NIOLockedValueBox<[String: String]>([:])
    private let acknowledged = NIOLockedValueBox<[String: Int]>([:])

    func serve(_ dataDirectory: URL) async throws -> ServerProcess {
        try await ChatEndToEndTests.serve(dataDirectory)
    }

    func prepare(_ server: ServerProcess) async throws {
        let signup = try await server.post("/api/signup/", #"{"email":"kill-cycles@example.com","password":"long enough pass"}"#)
        let token = try #require(signup.json["token"] as? String, "signup answered \(signup.status): \(signup.text)")
        auth.withLockedValue { $0 = ["Authorization": "Token \(token)"] }
    }

    func burst(against server: ServerProcess, cycle: Int) async {
        let auth = auth.withLockedValue { $0 }
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    var sessionId: Int?
                    for n in 0..<10_000 where !Task.isCancelled {
                        let message = "cycle \(cycle) writer \(writer) message \(n)"
                        let session = sessionId.map { #","session_id":\#($0)"# } ?? ""
                        guard let reply = try? await server.post("/api/send-chat/", #"{"message":"\#(message)"\#(session)}"#, headers: auth),
                              reply.status == 200, let id = reply.json["session_id"] as? Int
                        else { return }
                        sessionId = id
                        self.acknowledged.withLockedValue { $0[message] = id }
                    }
                }
            }
        }
    }

    /// Read from the account's export, which holds every session (the list holds the newest 200).
    var acknowledgedSoFar: Int { acknowledged.withLockedValue { $0.count } }

    func expectAcknowledgedServed(by server: ServerProcess) async throws -> Int {
        let export = try await server.get("/api/account/export/", headers: auth.withLockedValue { $0 })
        let sessions = try #require((export.json["account"] as? [String: Any])?["sessions"] as? [[String: Any]], "export answered \(export.status)")
        var listed: [String: Int] = [:]
        for session in sessions {
            for message in session["messages"] as? [[String: Any]] ?? [] where message["role"] as? String == "user" {
                listed[message["content"] as? String ?? ""] = session["id"] as? Int
            }
        }
        let sent = acknowledged.withLockedValue { $0 }
        for (message, sessionId) in sent {
            #expect(listed[message] == sessionId, "acknowledged \"\(message)\" in session \(sessionId) is \(listed[message].map { "in \($0)" } ?? "missing")")
        }
        return sent.count
    }
}
