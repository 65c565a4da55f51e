import EventLog
import Foundation
@testable import PostgresLog
import PostgresNIO
import Testing
import TestSupport

/// A node that stops talking while its transaction holds the append lock (its host lost, its process
/// frozen) does not stop every other node's appends: the server ends a transaction left idle.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct AppendLockHolderTests {
    @Test func aTransactionLeftIdleHoldingTheAppendLockIsEndedAndAppendsGoOn() async throws {
        let place = try await LogPlace(.postgres)
        let url = try #require(place.databaseURL)
        let log = try await place.open()
        defer { log.close() }
        _ = try await log.append(to: "s", expectedVersion: .noStream, events: [NewEvent(id: UUID(), type: "thing-happened", payload: Data("{}".utf8))])

        // A node's connection, with the nodes' own settings, that took the lock and then said nothing more.
        try await TestPostgres.withClient(url) { frozen, quiet in
            try await frozen.withConnection { connection in
                try await connection.query("BEGIN", logger: quiet)
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSharedLog.appendLock))", logger: quiet)
            }
            let started = ContinuousClock.now
            let appended = try await log.append(
                to: "s", expectedVersion: .exact(1), events: [NewEvent(id: UUID(), type: "thing-happened", payload: Data("{}".utf8))]
            )
            #expect(appended.positions == [2])
            #expect(started.duration(to: .now) >= .seconds(8), "the append never waited for the idle transaction's end: the test shows nothing")
        }
    }
}
