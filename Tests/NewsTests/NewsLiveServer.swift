import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NewsAPI
import NewsApp
import NewsCommands
import NewsDomain
import NewsProjections
import NIOCore
import PersonalData
import ProductHosting
import ReadModels
import TestSupport
import Testing

/// The news product's real stores in a temp dir, with the synthetic demo set ingested and folded.
final class NewsStorage: Sendable {
    static let masterKey = try! MasterKey(base64: Data((0..<32).map { UInt8($0 * 3 & 0xFF) }).base64EncodedString(), source: "test")

    let temporary: TemporaryDirectory
    let stores: ProductStores<NewsProduct>
    let runner: NewsRunner
    let commands: NewsCommandService
    var queries: NewsQueries { NewsQueries(database: stores.readDatabase) }

    /// Fresh stores, with the demo set already folded when `demo`: a copy of one data directory
    /// seeded once per test run, so that each test does not fold the set again on the shared pool.
    init(demo: Bool = true) async throws {
        temporary = try TemporaryDirectory()
        let data = temporary.url.appendingPathComponent("data")
        if demo { try FileManager.default.copyItem(at: try await Self.demoTemplate.value, to: data) }
        stores = try await ProductStores<NewsProduct>.open(
            directory: DataDirectory(data), masterKey: Self.masterKey, initialLogMapSize: 8 << 20, logger: Logger(label: "test")
        )
        runner = try stores.runner(logger: Logger(label: "test"))
        commands = NewsCommandService(store: stores.store)
    }

    private static let templateRoot = FileManager.default.temporaryDirectory.appendingPathComponent("news-demo-template-\(UUID().uuidString)")

    private static let demoTemplate = Task {
        // A static outlives every test; the process's exit removes it.
        atexit { try? FileManager.default.removeItem(at: NewsStorage.templateRoot) }
        let data = templateRoot.appendingPathComponent("data")
        let stores = try await ProductStores<NewsProduct>.open(
            directory: DataDirectory(data), masterKey: masterKey, initialLogMapSize: 8 << 20, logger: Logger(label: "test")
        )
        defer { stores.close() }
        try await NewsDemoSeed.run(into: NewsCommandService(store: stores.store))
        let runner = try stores.runner(logger: Logger(label: "test"))
        _ = try await BlockingWork.run { try runner.catchUp() }
        return data
    }

    deinit { stores.close() }
}

/// The news server as `news serve` builds it (`buildNewsApplication`: rate limit, health, operator
/// routes, middleware order, connection limits) on 127.0.0.1 over `NewsStorage`, lent to it.
struct NewsLiveServer {
    let storage: NewsStorage
    let client: TestClient

    @discardableResult
    static func run<T: Sendable>(
        storage given: NewsStorage? = nil, requestsPerMinute: Int = 100_000, adminToken: String? = nil, demoMode: Bool = true,
        _ body: @Sendable (NewsLiveServer) async throws -> T
    ) async throws -> T {
        let storage = if let given { given } else { try await NewsStorage() }
        var configuration = NewsConfiguration.testing(dataDirectory: storage.stores.directory.root)
        configuration.serving.demoMode = demoMode
        configuration.requestsPerMinute = requestsPerMinute
        configuration.adminToken = adminToken
        var logger = Logger(label: "news-test")
        logger.logLevel = .critical
        let app = try await buildNewsApplication(
            configuration: configuration, stores: storage.stores.lent, runner: storage.runner, commands: storage.commands, logger: logger
        )
        return try await serveWithClient(app) { client in
            try await body(NewsLiveServer(storage: storage, client: client))
        }
    }

    struct Reply: @unchecked Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var text: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
        /// `{"error": "…", "details": "…" | null}`, nothing else.
        var isErrorShape: Bool { Set(json.keys) == ["error", "details"] && json["error"] is String && (json["details"] is String || json["details"] is NSNull) }
    }

    func send(_ method: HTTPRequest.Method, _ uri: String, user: String? = "1", json: String? = nil, headers more: HTTPFields = [:]) async throws -> Reply {
        var headers = more
        if let user { headers[HTTPField.Name("X-User-ID")!] = user }
        if json != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(.init(uri, method: method, authority: "127.0.0.1", headers: headers, body: json.map { ByteBuffer(string: $0) }))
        return Reply(status: response.status, headers: response.headers, text: response.body.map { String(buffer: $0) } ?? "")
    }
}
