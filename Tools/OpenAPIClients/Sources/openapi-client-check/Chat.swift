import ChatClient
import HTTPTypes
import OpenAPIRuntime

/// Chat: login with the demo account, then writes (a new session, a message in it, a new title) and
/// reads (the sessions with their messages, the account's export). There is no operation that reads
/// one session: listSessions answers each with its messages.
@Sendable func checkChat(_ run: ProductCheck) async throws {
    let anonymous = run.transport()
    let open = Client(serverURL: run.serverURL, transport: anonymous.transport, middlewares: anonymous.middlewares)

    _ = try await run.call("getHealth") {
        switch try await open.getHealth() {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let account = try await run.call("login") {
        switch try await open.login(body: .json(.init(email: "demo@example.com", password: "demo-password-1"))) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }

    let signedIn = run.transport(headers: [.authorization: "Token \(account.token)"])
    let client = Client(serverURL: run.serverURL, transport: signedIn.transport, middlewares: signedIn.middlewares)

    let session = try await run.call("createSession") {
        switch try await client.createSession(body: .json(.init(title: "Client check", tone: "PlainClinical", lang: "en-US"))) {
        case .created(let created): try created.body.json
        case let other: throw unexpected(other)
        }
    }
    let reply = try await run.call("sendChat") {
        switch try await client.sendChat(body: .json(.init(message: "What should I ask my doctor about sleep?", session_id: Int(session.id)))) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    try expect(reply.role == .assistant && reply.session_id == session.id, "sendChat: a \(reply.role) message in session \(reply.session_id), expected the assistant's in \(session.id)")
    _ = try await run.call("sendChat") {
        switch try await client.sendChat(body: .json(.init(message: "A new conversation"))) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let sessions = try await run.call("listSessions") {
        switch try await client.listSessions() {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let listed = sessions.first { $0.id == session.id }
    try expect(listed?.messages.count == 2, "listSessions: session \(session.id) has \(listed.map { "\($0.messages.count)" } ?? "no") messages, expected the question and the reply")
    _ = try await run.call("renameSession") {
        switch try await client.renameSession(path: .init(id: session.id), body: .json(.init(title: "Client check, renamed"))) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    _ = try await run.call("exportAccount") {
        switch try await client.exportAccount() {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
}
