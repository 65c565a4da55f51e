import NewsApp
import Logging
import NewsCommands
import NewsProjections
import ProductHosting
import TestSupport
import Testing

/// The news product's OpenAPI document against the router its application serves, in demo mode
/// (the operator routes registered): every route documented, every operation routed.
@Suite struct NewsOpenAPIDocumentTests {
    @Test func everyServedRouteIsDocumentedAndEveryDocumentedOneServed() async throws {
        let directory = try TemporaryDirectory()
        var configuration = NewsConfiguration(dataDirectory: directory.url)
        configuration.demoMode = true
        let logger = Logger(label: "news-openapi-test")
        let stores = try await ProductStores<NewsProduct>.open(
            directory: DataDirectory(directory.url), masterKey: try DataDirectory(directory.url).masterKey(for: NewsProduct.self, configured: nil, demoMode: true),
            logger: logger
        )
        defer { stores.close() }
        let runner = try stores.runner(logger: logger)
        let router = try newsRouter(
            configuration: configuration, stores: stores, runner: runner, commands: NewsCommandService(store: stores.store)
        )
        let registered = OpenAPIRoutes.registered(router), documented = try OpenAPIRoutes.documented("News")
        #expect(registered.contains("POST /admin/replay") && registered.contains("PUT /v1/preferences"))
        #expect(registered.subtracting(documented).sorted() == [], "routes missing from openapi.json")
        #expect(documented.subtracting(registered).sorted() == [], "operations in openapi.json the router does not have")
    }
}
