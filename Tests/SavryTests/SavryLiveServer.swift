import ReadModels
import AppleSignIn
import HTTPServing
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ProductHosting
import SavryAPI
import SavryApp
import SavryProjections
import ServiceLifecycle
import TestSupport
import Testing

/// Savry's server as `savry serve` builds it (`buildSavryApplication`: sign-in, rate limits, health,
/// the operator routes behind `adminToken`, middleware order, connection limits), on 127.0.0.1 (an
/// ephemeral port) over the real stores in a temp dir (`SavryStorage`), lent to it.
struct SavryLiveServer {
    static let secret = "savry-test-secret-savry-test-secret-savry-test-secret-savry-test"
    static let adminToken = "savry-test-admin-token-savry-test-admin-token"

    let storage: SavryStorage
    /// Tokens under the server's secret, to read the grants it issued.
    let tokens: SavryTokens
    let client: SavryClient

    /// Serves `storage` (fresh stores when nil) until `body` returns, and returns what it returns;
    /// the stores stay open after. `appleJWKS` (a file or an http URL) turns on Sign in with Apple for `FakeApple.bundleId`.
    @discardableResult
    static func run<T: Sendable>(
        storage given: SavryStorage? = nil, devLoginEnabled: Bool = true, appleJWKS: URL? = nil, rateLimit: RateLimit? = nil, readOnly: Bool = false,
        _ body: @Sendable (SavryLiveServer) async throws -> T
    ) async throws -> T {
        let storage = if let given { given } else { try await SavryStorage() }
        var configuration = SavryConfiguration.testing(dataDirectory: storage.stores.directory.root)
        configuration.demoMode = devLoginEnabled
        configuration.jwtSecret = secret
        configuration.adminToken = adminToken
        configuration.appleBundleId = appleJWKS.map { _ in FakeApple.bundleId }
        configuration.appleKeySource = appleJWKS.map { $0.isFileURL ? .file($0) : .url($0) }
        configuration.rateLimit = rateLimit
        configuration.readOnly = readOnly
        let tokens = await SavryTokens(
            secret: secret, isActive: storage.commands.isActive, isSignedOut: SignedOutTokens(database: storage.stores.readDatabase).contains
        )
        var logger = Logger(label: "savry-test")
        logger.logLevel = .warning
        let app = try await buildSavryApplication(
            configuration: configuration, stores: storage.stores.lent, runner: storage.runner, commands: storage.commands, logger: logger
        )
        return try await serveWithClient(app, timeout: .seconds(30)) { client in
            try await body(SavryLiveServer(storage: storage, tokens: tokens, client: SavryClient(client: client)))
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

    /// An operator's request to `/admin/…`, with the admin token.
    func admin(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil) async throws -> Reply {
        try await send(method, uri, body: body, headers: [.adminToken: SavryLiveServer.adminToken])
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
    static let adminToken = HTTPField.Name("X-Admin-Token")!
}
