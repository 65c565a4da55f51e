import NuvieDomain
import Foundation
import GRDB
@testable import ReadModels
import Testing

/// A long backlog is folded with a wide page cache and rare WAL checkpoints; the runner's connection
/// gets its own settings back after, whether the fold succeeded or not.
@Suite(.timeLimit(.minutes(3))) struct BulkLoadingTests {
    @Test func theConnectionsSettingsAreWidenedThenRestored() async throws {
        let harness = try ProjectionHarness()
        let pool = harness.database.pool
        func settings() throws -> [Int] {
            try pool.writeWithoutTransaction { db in
                [try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0, try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 0]
            }
        }
        let before = try settings()
        let during = try BulkLoading.during(pool) { try settings() }
        #expect(during == [-BulkLoading.cacheKibibytes, BulkLoading.checkpointPages])
        #expect(try settings() == before)

        struct Stopped: Error {}
        #expect(throws: Stopped.self) { try BulkLoading.during(pool) { throw Stopped() } }
        #expect(try settings() == before)
    }
}
