import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ProductHosting
import SavryDomain
import TestSupport
import Testing

/// `/health` as a balancer reads it: a node of a shared log answers 503 `catching_up` until its read
/// models have held the log once (what it copied when it started it folded meanwhile; what was
/// written since is still to fold; a `/health` waits a moment for it), then 200 even while a moment's writes are being folded; one machine
/// answers 200 `catching_up` from the start, as before.
@Suite(.timeLimit(.minutes(2))) struct NodeHealthTests {
    @Test(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"))
    func aNewNodeOfASharedLogAnswers503UntilItsReadModelsHoldTheLog() async throws {
        let logURL = try await TestPostgres.newDatabase()
        let directory = try TemporaryDirectory()
        let a = try await SavryStorage(directory: directory.url.appendingPathComponent("a"), logURL: logURL)
        for id in ["a", "b", "c"] { try await a.append(RecipesProjectionTests.created(id, by: 1), to: "recipe-\(id)") }
        let b = try await SavryStorage(directory: directory.url.appendingPathComponent("b"), logURL: logURL)
        #expect(b.runner.appliedPosition == 3, "a new node folds the log while it copies it")
        let written = try await a.append(RecipesProjectionTests.created("late", by: 1), to: "recipe-late")
        #expect(try await Self.eventually { b.log.headPosition == written })

        try await Self.health(of: b) { health in
            #expect(try await health() == "503 catching_up")
            // Folded while it is asked, as under steady writes a node seldom is at the head at the instant.
            async let folded = { try await Task.sleep(for: .milliseconds(200)); return try b.runner.catchUp() }()
            #expect(try await health() == "200 ok")
            #expect(try await folded == 1)
            let head = try await a.append(RecipesProjectionTests.created("d", by: 1), to: "recipe-d")
            #expect(try await Self.eventually { b.log.headPosition == head })
            #expect(try await health() == "200 catching_up")
        }
    }

    @Test func oneMachineAnswers200WhileItCatchesUp() async throws {
        let storage = try await SavryStorage()
        try await storage.append(RecipesProjectionTests.created("a", by: 1), to: "recipe-a")
        try await Self.health(of: storage) { health in
            let answer = try await health()
            #expect(answer == "200 catching_up")
        }
    }

    /// `body` given a function reading `/health` of `storage`'s node as "code status" (its runner left
    /// to the test).
    private static func health(
        of storage: SavryStorage, _ body: @Sendable (_ health: @escaping @Sendable () async throws -> String) async throws -> Void
    ) async throws {
        let router = Router()
        HealthController(log: storage.log, runner: storage.runner, registry: nil).register(on: router)
        try await Application(router: router).test(.router) { client in
            try await body {
                try await client.execute(uri: "/health", method: .get) { response in
                    let json = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
                    return "\(response.status.code) \(json?["status"] as? String ?? "-")"
                }
            }
        }
    }

    private static func eventually(_ done: () -> Bool) async throws -> Bool {
        for _ in 0..<250 where !done() { try await Task.sleep(for: .milliseconds(20)) }
        return done()
    }
}
