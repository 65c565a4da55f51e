import EventLog
import Foundation
import Logging
import PostgresLog
import PostgresNIO
import TestSupport
import Testing

/// With several servers in the log's URL, an operation past its deadline on a primary that still
/// answers gives up itself only: the pool is left, and what waits on it given up, only once another
/// server (or none) is found to take writes.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct SlowPrimaryTests {
    struct NeverWaited: Error {}

    @Test func anOperationPastItsDeadlineOnAPrimaryThatStillAnswersGivesUpOnlyItself() async throws {
        let url = try await TestPostgres.newDatabase()
        let server = try #require(url.range(of: #"127\.0\.0\.1:\d+"#, options: .regularExpression))
        // The second server refuses every connection: the first is the one that takes writes.
        let twoServers = url.replacingCharacters(in: server, with: "\(url[server]),127.0.0.1:1") + "&target_session_attrs=read-write"
        let log = try await PostgresSharedLog(url: twoServers, product: "test", operationTimeout: .seconds(8))
        defer { log.close() }
        try await log.storeFile("kept", Data("saved".utf8))

        try await TestPostgres.withClient(url) { client, logger in
            try await client.withConnection { holder in
                _ = try await holder.query("BEGIN", logger: logger)
                _ = try await holder.query("LOCK TABLE shared_file IN ACCESS EXCLUSIVE MODE", logger: logger)
                let first = Task { try await log.file("kept") }
                try await Self.waitForLockWaiters(1, client: client, logger: logger)
                // Seconds apart, so the second is still well inside its deadline when the lock is released.
                try await Task.sleep(for: .seconds(3))
                let second = Task { try await log.file("kept") }
                try await Self.waitForLockWaiters(2, client: client, logger: logger)
                // The first passes its deadline while the lock is held; the second, sent later, still waits.
                await #expect(throws: SharedLogUnreachable.self) { try await first.value }
                _ = try await holder.query("ROLLBACK", logger: logger)
                #expect(try await second.value == Data("saved".utf8), "the second operation was given up with the first")
            }
        }
        #expect(try await log.file("kept") == Data("saved".utf8))
    }

    @Test func aClosedLogMakesNoPoolAgain() async throws {
        let log = try await PostgresSharedLog(url: try await TestPostgres.newDatabase(), product: "test", operationTimeout: .seconds(8))
        try await log.storeFile("kept", Data("saved".utf8))
        log.close()
        await #expect(throws: SharedLogUnreachable.self, "an operation after close reconnected: a pool nothing would close") {
            try await log.file("kept")
        }
    }

    /// Waits until `count` sessions of the database wait for a lock.
    private static func waitForLockWaiters(_ count: Int, client: PostgresClient, logger: Logger) async throws {
        for _ in 0..<400 {
            let rows = try await client.query(
                "SELECT count(*)::int4 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'", logger: logger
            )
            for try await waiting in rows.decode(Int32.self) where waiting == count { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw NeverWaited()
    }
}
