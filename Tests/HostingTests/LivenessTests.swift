import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PersonalData
import ProductHosting
import TestSupport
import Testing

/// `/health/live` is liveness, `/health` readiness: a node whose projection has stopped on an event
/// is not ready (503), and is alive (a restart would not mend it).
@Suite(.timeLimit(.minutes(1))) struct LivenessTests {
    @Test func aNodeWithAStoppedProjectionIsAliveAndNotReady() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let masterKey = try MasterKey.demo(file: directory.url.appendingPathComponent("master-key"))
        try await VerifyAndTimeTravelTests.given(data, masterKey: masterKey, product: RefusingTallyProduct.self)
        let stores = try await ProductStores<RefusingTallyProduct>.open(directory: DataDirectory(data), masterKey: masterKey, logger: Logger(label: "test"))
        defer { stores.close() }
        let router = Router()
        HealthController(log: stores.log, runner: try stores.runner(logger: Logger(label: "test")), registry: nil).register(on: router)

        try await Application(router: router).test(.live) { client in
            let ready = try await client.execute(uri: "/health", method: .get)
            #expect(ready.status == .serviceUnavailable)
            #expect(String(buffer: ready.body).contains(#""failing""#))
            let live = try await client.execute(uri: "/health/live", method: .get)
            #expect(live.status == .ok)
            #expect(try JSONSerialization.jsonObject(with: Data(String(buffer: live.body).utf8)) as? [String: String] == ["status": "alive"])
        }
    }
}
