import SavryApp
import Logging
import ProductHosting
import SavryCommands
import SavryProjections
import TestSupport
import Testing

/// Savry's OpenAPI document against the router its application serves, in demo mode (dev sign-in
/// and the operator routes registered): every route documented, every operation routed.
@Suite struct SavryOpenAPIDocumentTests {
    @Test func everyServedRouteIsDocumentedAndEveryDocumentedOneServed() async throws {
        let directory = try TemporaryDirectory()
        let configuration = SavryConfiguration.testing(dataDirectory: directory.url)
        let logger = Logger(label: "savry-openapi-test")
        let stores = try await ProductStores<SavryProduct>.open(for: configuration, logger: logger)
        defer { stores.close() }
        let runner = try stores.runner(logger: logger)
        let router = try await savryRouter(
            configuration: configuration, stores: stores, runner: runner, commands: SavryCommandService(store: stores.store)
        )
        let registered = OpenAPIRoutes.registered(router), documented = try OpenAPIRoutes.documented("Savry")
        #expect(registered.contains("POST /admin/replay") && registered.contains("DELETE /api/app/auth"))
        #expect(registered.subtracting(documented).sorted() == [], "routes missing from openapi.json")
        #expect(documented.subtracting(registered).sorted() == [], "operations in openapi.json the router does not have")
    }
}
