import ChatAPI
import ChatApp
import ChatAssistant
import ChatCommands
import ChatProjections
import Logging
import PersonalData
import ProductHosting
import TestSupport
import Testing

/// Chat's OpenAPI document against the router its application serves, in demo mode (the operator
/// routes registered): every route documented, every operation routed.
@Suite struct ChatOpenAPIDocumentTests {
    @Test func everyServedRouteIsDocumentedAndEveryDocumentedOneServed() async throws {
        let directory = try TemporaryDirectory()
        var configuration = ChatConfiguration(dataDirectory: directory.url)
        configuration.demoMode = true
        let logger = Logger(label: "chat-openapi-test")
        let stores = try await ProductStores<ChatProduct>.open(
            directory: DataDirectory(directory.url), masterKey: try DataDirectory(directory.url).masterKey(for: ChatProduct.self, configured: nil, demoMode: true),
            logger: logger
        )
        defer { stores.close() }
        let runner = try stores.runner(logger: logger)
        let router = try chatRouter(
            configuration: configuration, stores: stores, runner: runner, commands: try ChatCommandService(store: stores.store),
            assistant: OfflineAssistant(), logger: logger
        )
        let registered = OpenAPIRoutes.registered(router), documented = try OpenAPIRoutes.documented("Chat")
        #expect(registered.contains("POST /admin/replay") && registered.contains("DELETE /api/account"))
        #expect(registered.subtracting(documented).sorted() == [], "routes missing from openapi.json")
        #expect(documented.subtracting(registered).sorted() == [], "operations in openapi.json the router does not have")
    }

    @Test func everyEngineRefusalsCodeIsDocumented() throws {
        let documented = try OpenAPIRoutes.enumeratedStrings("Chat")
        #expect(EngineRefusal.examples.map { ChatAPIError($0).error }.filter { !documented.contains($0) } == [])
    }
}
