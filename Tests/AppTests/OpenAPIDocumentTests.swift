import NuvieAPI
@testable import NuvieApp
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NuvieProjections
import NuvieRecommendations
import ProductHosting
import TestSupport
import Testing

/// The OpenAPI document (`Sources/Products/Nuvie/API/OpenAPI/openapi.json`) against the router: a route added
/// without its operation in the document fails here, and so does an operation left behind.
@Suite struct OpenAPIDocumentTests {
    static let documentFile = OpenAPIRoutes.documentFile("Nuvie")

    @Test func everyRegisteredRouteIsDocumentedAndEveryDocumentedOneRegistered() async throws {
        let registered = try await registeredRoutes()
        let documented = try OpenAPIRoutes.documented("Nuvie")
        // The demo configuration registers every optional group (`/admin`, `/ai`): none can hide.
        #expect(registered.contains("POST /ai/recommend") && registered.contains("GET /admin/events"))
        #expect(registered.subtracting(documented).sorted() == [], "routes missing from openapi.json")
        #expect(documented.subtracting(registered).sorted() == [], "operations in openapi.json the router does not have")
    }

    /// Every request body is read by `JSONBody` (or the operator's replay), which refuses a field it
    /// does not know: the document says so, and a generated client does not send one.
    @Test func everyRequestBodyIsClosedToUnknownFields() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.documentFile)) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        var bodies: [String] = []
        for case let operations as [String: Any] in (document["paths"] as? [String: Any] ?? [:]).values {
            for case let operation as [String: Any] in operations.values {
                let content = ((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any]
                guard let reference = (content?["schema"] as? [String: Any])?["$ref"] as? String else { continue }
                bodies.append(String(reference.split(separator: "/").last ?? ""))
            }
        }
        #expect(bodies.count >= 10)
        for name in Set(bodies) {
            #expect((schemas[name] as? [String: Any])?["additionalProperties"] as? Bool == false, "\(name)")
        }
    }

    /// An operation the document gives no request body refuses one that says something, as every
    /// endpoint refuses a field it does not read: a body sent with a like or a block was dropped unnoticed.
    @Test func everyOperationWithoutABodyRefusesOne() async throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.documentFile)) as? [String: Any])
        var operations: [(method: HTTPRequest.Method, path: String)] = []
        for case let (path, operations_ as [String: Any]) in document["paths"] as? [String: Any] ?? [:] where !path.hasPrefix("/admin") {
            for case let (method, operation as [String: Any]) in operations_ where ["post", "put", "patch", "delete"].contains(method) {
                guard operation["requestBody"] == nil, let method = HTTPRequest.Method(method.uppercased()) else { continue }
                operations.append((method, path))
            }
        }
        #expect(operations.count >= 9, "\(operations)")
        let bodiless = operations.sorted { $0.path < $1.path }
        try await withLiveServer { client in
            let probe = try await client.account("probe")
            let head = try await client.headPosition()
            for (method, path) in bodiless {
                let uri = path.replacing(#/\{[a-z_]+\}/#, with: "1")
                let reply = try await client.send(method, uri, token: probe.token, body: #"{"unread":1}"#)
                #expect(reply.status == .badRequest && reply.errorCode == "VALIDATION_ERROR", "\(method) \(path): \(reply.text)")
            }
            #expect(try await client.headPosition() == head)
        }
    }

    @Test func theServerServesTheDocumentWithoutSignIn() async throws {
        try await withLiveServer { client in
            let reply = try await client.send(.get, "/openapi.json")
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(Data(reply.text.utf8) == (try Data(contentsOf: Self.documentFile)))
            #expect(reply.json["openapi"] as? String == "3.1.0")
        }
    }

    /// `GET /movies/{movie_id}`-style keys of the router built by the app's own code, over a fresh
    /// demo data directory (no dataset: nothing to import).
    private func registeredRoutes() async throws -> Set<String> {
        let directory = try TemporaryDirectory()
        let configuration = NuvieConfiguration.testing(dataDirectory: directory.url)
        let logger = Logger(label: "openapi-test")
        let stores = try await ProductStores<NuvieProduct>.open(for: configuration, logger: logger)
        defer { stores.close() }
        let cache = try RecommendationFeedCache(path: configuration.recommendationCachePath)
        defer { try? cache.close() }
        let runner = try stores.runner(logger: logger)
        let recommender = Recommender(inputs: RecommendationInputQueries(database: stores.readDatabase), logger: logger)
        let router = try await nuvieRouter(
            configuration: configuration, secrets: try NuvieSecrets(configuration), stores: stores, cache: cache, runner: runner,
            recommender: recommender, logger: logger
        )
        return OpenAPIRoutes.registered(router)
    }

    @Test func everyEngineRefusalsCodeIsDocumented() throws {
        let documented = try OpenAPIRoutes.enumeratedStrings("Nuvie")
        #expect(EngineRefusal.examples.map { NuvieAPIError($0).code }.filter { !documented.contains($0) } == [])
    }
}
