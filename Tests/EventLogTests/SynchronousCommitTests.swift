import EventLog
import Foundation
import Logging
import PostgresLog
import PostgresNIO
import Testing
import TestSupport

/// A commit that waits for a synchronous standby is saved on the primary before the standby holds
/// it. When the server shuts down during that wait, it sends what the statement answered and ends
/// the connection: the append must not be acknowledged as saved on both machines.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct SynchronousCommitTests {
    @Test func aCommitCutShortWhileWaitingForItsStandbyIsNotAcknowledged() async throws {
        let server = try await OwnPostgresServer.start()
        defer { server.stopWhenLeaving() }
        let directory = try TemporaryDirectory()
        let log = try EventLog(configuration: .init(
            directory: directory.url.appendingPathComponent("node"), initialMapSize: 1 << 20,
            shared: try await PostgresSharedLog(url: server.url, product: "test", operationTimeout: .seconds(20))
        ))
        defer { log.close() }
        _ = try await log.append(to: "s", expectedVersion: .noStream, events: [NewEvent(id: UUID(), type: "thing-happened", payload: Data("{}".utf8))])

        let logger = Logger(label: "standby-that-never-comes")
        let client = PostgresClient(configuration: try PostgresLogLocation(url: server.url).firstServerConfiguration)
        let appending = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            // A standby that never connects: every commit from now on waits for it.
            try await client.query("ALTER SYSTEM SET synchronous_standby_names = 'nobody'", logger: logger)
            try await client.query("SELECT pg_reload_conf()", logger: logger)
            // The reload reaches every session asynchronously: once this one has it, the node's has been signalled too.
            var reloaded = false
            for _ in 0..<100 where !reloaded {
                for try await setting in try await client.query("SHOW synchronous_standby_names", logger: logger).decode(String.self) {
                    reloaded = setting == "nobody"
                }
                if !reloaded { try await Task.sleep(for: .milliseconds(50)) }
            }
            try #require(reloaded, "the server never took the setting")
            let appending = Task {
                try await log.append(to: "s", expectedVersion: .exact(1), events: [NewEvent(id: UUID(), type: "thing-happened", payload: Data("{}".utf8))])
            }
            var waiting = 0
            for _ in 0..<100 where waiting == 0 {
                try await Task.sleep(for: .milliseconds(100))
                for try await count in try await client.query("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'", logger: logger).decode(Int.self) {
                    waiting = count
                }
            }
            try #require(waiting == 1, "the commit never waited for the standby")
            return appending
        }
        _ = try await TestPostgres.script("stop", server.cluster)

        let refused = await #expect(throws: SharedLogUnreachable.self) { try await appending.value }
        #expect(refused?.outcomeUnknown == true, "\(refused.map { "\($0)" } ?? "acknowledged as saved")")
    }
}
