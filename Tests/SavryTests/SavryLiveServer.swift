import ReadModels
import AppleSignIn
import HTTPServing
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SavryAPI
import SavryProjections
import ServiceLifecycle
import Testing

/// Savry's routes served by a real Hummingbird server on 127.0.0.1 (an ephemeral port), over a real
/// log and read database in a temp dir, with the projection runner running as the server's service.
struct SavryLiveServer {
    static let secret = "savry-test-secret-savry-test-secret-savry-test-secret-savry-test"

    let storage: SavryStorage
    let tokens: SavryTokens
    let client: SavryClient

    static func run(
        devLoginEnabled: Bool = true, apple: AppleIdentityVerifier? = nil, rateLimit: RateLimit? = nil, _ body: @Sendable (SavryLiveServer) async throws -> Void
    ) async throws {
        let storage = try SavryStorage()
        let tokens = await SavryTokens(secret: secret, isRegistered: storage.commands.userExists)
        let router = Router(context: SavryRequestContext.self)
        addSavryRoutes(to: router, dependencies: SavryAPIDependencies(
            commands: storage.commands, recipes: RecipeQueries(database: storage.database), tokens: tokens, apple: apple,
            devLoginEnabled: devLoginEnabled, readYourWrites: ReadYourWrites(runner: storage.runner, timeout: .seconds(10)),
            rateLimit: rateLimit
        ))
        let (ports, reportPort) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "savry-test")
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), services: [storage.runner],
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { reportPort.yield(port) }
            },
            logger: logger
        )
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { reportPort.finish() }
                try await services.run()
            }
            var reported = ports.makeAsyncIterator()
            guard let port = await reported.next() else { return try await tasks.waitForAll() }
            let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
            client.connect()
            do {
                try await body(SavryLiveServer(storage: storage, tokens: tokens, client: SavryClient(client: client)))
            } catch {
                try? await client.shutdown()
                await services.triggerGracefulShutdown()
                throw error
            }
            try await client.shutdown()
            await services.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}

/// JSON in, parsed JSON out.
struct SavryClient: Sendable {
    let client: TestClient

    struct Reply: @unchecked Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var text: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var recipe: [String: Any] { json["recipe"] as? [String: Any] ?? [:] }
        /// The error body is exactly `{"message": "<text>"}`.
        var isErrorShape: Bool { json.count == 1 && json["message"] is String }
    }

    func send(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, body: String? = nil, headers extra: HTTPFields = [:]) async throws -> Reply {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(.init(uri, method: method, authority: "127.0.0.1", headers: headers, body: body.map { ByteBuffer(string: $0) }))
        return Reply(status: response.status, headers: response.headers, text: response.body.map { String(buffer: $0) } ?? "")
    }

    /// Signs in as a dev user (registered on first use) and returns the token.
    func token(_ devUser: String) async throws -> String {
        let reply = try await send(.post, "/api/app/auth", body: #"{"devUser":"\#(devUser)"}"#)
        try #require(reply.status == .ok, "sign-in failed: \(reply.text)")
        return try #require(reply.json["token"] as? String)
    }

    /// Creates a recipe and returns its id.
    func create(_ token: String, _ body: String) async throws -> String {
        let reply = try await send(.post, "/api/app/recipes", token: token, body: body)
        try #require(reply.status == .created, "create failed: \(reply.text)")
        return try #require(reply.json["recipeId"] as? String)
    }
}

extension HTTPField.Name {
    static let listHead = HTTPField.Name("X-List-Head")!
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let requestId = HTTPField.Name("X-Request-Id")!
}
