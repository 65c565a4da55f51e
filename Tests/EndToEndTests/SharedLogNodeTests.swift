import Foundation
import Testing
import TestSupport

/// Products' real binaries as nodes of one product over a PostgreSQL log (`--log-url`): each node a
/// process with a data directory of its own, all sharing the log and the key store in one database.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(5)))
struct SharedLogNodeTests {
    /// What every node of a cluster must share besides the log: the master key the data keys are
    /// wrapped under, and the secrets its tokens are signed with.
    static func clusterEnvironment(_ prefix: String) -> [String: String] {
        [
            "\(prefix)_MASTER_KEY": Data(repeating: 7, count: 32).base64EncodedString(),
            "\(prefix)_JWT_SECRET": "cluster-test-secret-cluster-test-secret",
            "\(prefix)_ADMIN_TOKEN": "cluster-test-admin-token-cluster-test",
        ]
    }

    static func savryNode(_ directory: URL, logURL: String) async throws -> ServerProcess {
        try await ServerProcess.start("savry", outputDirectory: directory.deletingLastPathComponent(), environment: clusterEnvironment("SAVRY")) { port in
            ["serve", "--data-dir", directory.path, "--port", "\(port)", "--demo", "--log-url", logURL, "--log-level", "warning"]
        }
    }

    /// Polls until `done` holds, for at most `timeout`; whether it did.
    static func eventually(within timeout: Duration = .seconds(5), _ done: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await done() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await done()
    }

    @Test func aWriteOnOneNodeIsReadOnAnotherAndAnErasureBlindsEveryNode() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        let a = try await Self.savryNode(directory.url.appendingPathComponent("a"), logURL: logURL)
        let b = try await Self.savryNode(directory.url.appendingPathComponent("b"), logURL: logURL)
        defer { a.stopWhenLeaving(); b.stopWhenLeaving() }

        let token = try await SavryEndToEndTests.signIn(a, "ana")
        let created = try await a.post("/api/app/recipes", #"{"name":"Quince of the cluster","ingredients":[{"name":"quince"}],"instructions":["Poach"]}"#, token: token)
        #expect(created.status == 201)
        #expect(try await Self.eventually { try await b.get("/api/app/recipes", token: token).text.contains("Quince of the cluster") })
        #expect(try await b.get("/api/app/recipes", token: try await SavryEndToEndTests.signIn(b, "ana")).text.contains("Quince"), "the same cook, signed in on either node")

        // How soon is a figure for BENCHMARKS.md, not a timed test: here, that it happens.
        #expect(try await a.delete("/api/app/account", token: token).status == 204)
        #expect(try await Self.eventually { try await b.get("/api/app/recipes", token: token).status == 401 })
        let healthB = try await b.get("/health")
        #expect(healthB.status == 200)
    }

    @Test func aNodeDoesNotStartOnAnotherProductsLogOrOnAServerItCannotReach() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        try await Self.savryNode(directory.url.appendingPathComponent("savry"), logURL: logURL).stop()

        let chat = try await runProduct("chat", ["serve", "--data-dir", directory.url.appendingPathComponent("chat").path, "--port", "0", "--demo", "--log-url", logURL])
        #expect(chat.status != 0 && chat.output.contains("CHAT_LOG_URL: the database at") && chat.output.contains("holds the event log of savry"), "\(chat.output)")

        let unreachable = try await runProduct(
            "savry", ["serve", "--data-dir", directory.url.appendingPathComponent("other").path, "--port", "0", "--demo"],
            environment: ["SAVRY_LOG_URL": "postgres://postgres:secret-password@127.0.0.1:1/savry?sslmode=disable"]
        )
        #expect(unreachable.status != 0 && unreachable.output.contains("SAVRY_LOG_URL: cannot reach the event log at postgres://postgres@127.0.0.1:1/savry"), "\(unreachable.output)")
        #expect(!unreachable.output.contains("secret-password"))

        let malformed = try await runProduct("savry", ["serve", "--data-dir", directory.url.appendingPathComponent("other").path, "--log-url", "mysql://x/y"])
        #expect(malformed.status != 0 && malformed.output.contains("SAVRY_LOG_URL"), "\(malformed.output)")
    }
}
