import ChatAPI
import ChatApp
import ChatAssistant
import ChatCommands
import ChatProjections
import Foundation
import HTTPServing
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PersonalData
import ProductHosting
import ReadModels
import ServiceLifecycle
import TestSupport
import Testing

/// The chat product's real stores in a temp dir, opened as the server opens them.
final class ChatStorage: Sendable {
    static let masterKey = try! MasterKey(base64: Data((0..<32).map { UInt8($0 * 5 & 0xFF) }).base64EncodedString(), source: "test")
    /// Tests hash passwords at a tenth of the production count: the format and the check are the same.
    static let passwords = DjangoPassword(iterations: 1_000)

    let temporary: TemporaryDirectory
    let stores: ProductStores<ChatProduct>
    let runner: ChatRunner
    let commands: ChatCommandService
    let files: SealedFiles

    init() async throws {
        temporary = try TemporaryDirectory()
        let directory = DataDirectory(temporary.url.appendingPathComponent("data"))
        stores = try await ProductStores<ChatProduct>.open(directory: directory, masterKey: Self.masterKey, initialLogMapSize: 4 << 20, logger: Logger(label: "test"))
        runner = try stores.runner(batchSize: 3, logger: Logger(label: "test"))
        commands = try ChatCommandService(store: stores.store, passwords: Self.passwords)
        files = stores.uploadedFiles
    }

    deinit { stores.close() }

    var headPosition: UInt64 { stores.log.headPosition }

    /// The type of every event recorded, in order.
    func eventTypes() throws -> [String] {
        try stores.log.read(from: 1, limit: .max).map(\.type)
    }
}

/// The chat server as `chat serve` builds it (`buildChatApplication`: token auth, the login
/// throttle, health, the operator routes, middleware order, connection limits) on 127.0.0.1 over
/// `ChatStorage`, lent to it, replies from `assistant`.
struct ChatLiveServer {
    static let adminToken = "chat-test-admin-token-chat-test-admin-token"

    let storage: ChatStorage
    let client: ChatClient

    @discardableResult
    static func run<T: Sendable>(
        assistant: any Assistant = OfflineAssistant(), storage given: ChatStorage? = nil, loginThrottle: LoginThrottleLimits = .standard,
        _ body: @Sendable (ChatLiveServer) async throws -> T
    ) async throws -> T {
        let storage = if let given { given } else { try await ChatStorage() }
        var configuration = ChatConfiguration.testing(dataDirectory: storage.stores.directory.root)
        configuration.adminToken = adminToken
        configuration.loginThrottle = loginThrottle
        configuration.contextTokens = 2_000
        var logger = Logger(label: "chat-test")
        logger.logLevel = .critical
        let app = try await buildChatApplication(
            configuration: configuration, stores: storage.stores.lent, runner: storage.runner, commands: storage.commands, assistant: assistant,
            logger: logger
        )
        return try await serveWithClient(app) { client in
            try await body(ChatLiveServer(storage: storage, client: ChatClient(client: client)))
        }
    }
}

/// Requests as the iOS app sends them, replies parsed.
struct ChatClient: Sendable {
    let client: TestClient

    struct Reply: @unchecked Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var text: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var array: [[String: Any]] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? [] }
        /// Exactly the contract's error shape: `error`, `message` and `detail`, all strings.
        var isErrorShape: Bool { json.count == 3 && json["error"] is String && json["message"] is String && json["detail"] is String }
        var errorCode: String? { json["error"] as? String }
    }

    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: String? = nil, body: ByteBuffer? = nil, headers extra: HTTPFields = [:]
    ) async throws -> Reply {
        var headers = extra
        if let token { headers[.authorization] = "Token \(token)" }
        if json != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(.init(uri, method: method, authority: "127.0.0.1", headers: headers, body: body ?? json.map { ByteBuffer(string: $0) }))
        return Reply(status: response.status, headers: response.headers, text: response.body.map { String(buffer: $0) } ?? "")
    }

    /// A multipart form: text fields, then files as `files[]`.
    func sendMultipart(
        _ uri: String, token: String, fields: [(String, String)], files: [(name: String, type: String, contents: [UInt8])], headers extra: HTTPFields = [:]
    ) async throws -> Reply {
        let boundary = "test-boundary-\(UInt64.random(in: 0...UInt64.max))"
        var body = ByteBuffer()
        for (name, value) in fields {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        for file in files {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"files[]\"; filename=\"\(file.name)\"\r\nContent-Type: \(file.type)\r\n\r\n")
            body.writeBytes(file.contents)
            body.writeString("\r\n")
        }
        body.writeString("--\(boundary)--\r\n")
        var headers = extra
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        return try await send(.post, uri, token: token, body: body, headers: headers)
    }

    /// A multipart body written by hand (boundary `B`) to send-chat: the malformed ones `sendMultipart` would not write.
    func sendRawMultipart(_ body: ByteBuffer, token: String) async throws -> Reply {
        try await send(.post, "/api/send-chat/", token: token, body: body, headers: [.contentType: "multipart/form-data; boundary=B"])
    }

    func signUp(_ email: String, password: String = "correct horse battery", extra: String = "") async throws -> [String: Any] {
        let reply = try await send(.post, "/api/signup/", json: #"{"email":"\#(email)","password":"\#(password)"\#(extra)}"#)
        try #require(reply.status == .created, "signup failed: \(reply.text)")
        return reply.json
    }

    func token(_ email: String, password: String = "correct horse battery") async throws -> String {
        let reply = try await send(.post, "/api/login/", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
        try #require(reply.status == .ok, "login failed: \(reply.text)")
        return try #require(reply.json["token"] as? String)
    }

    /// A new user's token.
    func newUser(_ email: String) async throws -> String {
        try #require(try await signUp(email)["token"] as? String)
    }

    func chat(_ token: String, _ message: String, sessionId: Int64? = nil) async throws -> Reply {
        let session = sessionId.map { #","session_id":\#($0)"# } ?? ""
        return try await send(.post, "/api/send-chat/", token: token, json: #"{"message":"\#(message)","tone":"plain_clinical","lang":"en-US"\#(session)}"#)
    }
}
