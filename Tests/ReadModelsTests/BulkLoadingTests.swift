import EventLog
import EventSourcing
import Foundation
import GRDB
@testable import ReadModels
import TestSupport
import Synchronization
import Testing

/// A long backlog is folded with a wide page cache and rare WAL checkpoints, and into empty tables
/// with their indexes for reads built after; the connection gets its own settings back and the
/// indexes come back, whether the fold succeeded, failed, or the process stopped in the middle.
@Suite struct BulkLoadingTests {
    @Test func theConnectionsSettingsAreWidenedThenRestored() async throws {
        let models = try TallyReadModels()
        let pool = models.database.pool
        func settings() throws -> [Int] {
            try pool.writeWithoutTransaction { db in
                [try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0, try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 0]
            }
        }
        let before = try settings()
        #expect(before[1] == ReadDatabase.walCheckpointPages, "serving copies the WAL into the file every 40 MB")
        let during = try BulkLoading.during(pool) { try settings() }
        #expect(during == [-BulkLoading.cacheKibibytes, BulkLoading.checkpointPages])
        #expect(try settings() == before)

        struct Stopped: Error {}
        #expect(throws: Stopped.self) { try BulkLoading.during(pool) { throw Stopped() } }
        #expect(try settings() == before)
    }

    @Test func aFoldIntoEmptyTablesBuildsTheIndexesForReadsAfterAndLeavesTheSameRows() async throws {
        let models = try TallyReadModels()
        try await models.givenCountsAndAnErasure()
        let during = try BulkLoading.during(models.database.pool, emptied: models.database.projections) {
            _ = try models.runner.catchUp()
            return try models.database.indexNames()
        }
        #expect(!during.contains("tallyNoteByUser"))
        #expect(try models.database.indexNames().contains("tallyNoteByUser"))

        let plain = try TallyReadModels()
        try await plain.givenCountsAndAnErasure()
        _ = try plain.runner.catchUp()
        #expect(try models.database.canonicalDump() == plain.database.canonicalDump())
        #expect(try models.database.schemaSQL() == plain.database.schemaSQL())
    }

    @Test func indexesLeftUnbuiltByAStoppedProcessAreBuiltWhenTheFileOpens() async throws {
        let models = try TallyReadModels()
        try await models.givenCountsAndAnErasure()
        let stopped = models.directory.url.appendingPathComponent("stopped/read.sqlite").path
        try FileManager.default.createDirectory(atPath: (stopped as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try BulkLoading.during(models.database.pool, emptied: models.database.projections) {
            _ = try models.runner.catchUp(until: 4)
            try ReadDatabase.backup(fileAt: models.database.path, to: stopped)
        }
        let reopened = try ReadDatabase(path: stopped, projections: models.projections)
        defer { try? reopened.close() }
        #expect(try reopened.indexNames().contains("tallyNoteByUser"))
        #expect(try reopened.schemaSQL() == models.database.schemaSQL())
    }

    /// A disk that fills as a bulk fold builds the indexes it deferred: the runner says the disk is
    /// full (the server retries; the raw SQLite error stopped the server) and builds them at its next
    /// catch-up, not only at the next start.
    @Test func aFullDiskWhileDeferredIndexesAreBuiltIsStorageFullAndTheNextCatchUpBuildsThem() async throws {
        // Enough notes that their index needs more pages than the fold leaves free.
        func givenNotes(_ models: TallyReadModels) async throws {
            var appends: [StreamAppend] = []
            for n in 1...3_000 {
                let event = try await models.store.newEvent(.counted(Counted(tally: "t\(n)", userId: Int64(n % 97), amount: 1, note: "note \(n)")))
                appends.append(StreamAppend(streamId: "tally-\(n)", expectedVersion: .noStream, events: [event]))
            }
            _ = try await models.log.append(appends)
        }
        let reference = try TallyReadModels()
        try await givenNotes(reference)
        let foldedPages = try BulkLoading.during(reference.database.pool, emptied: reference.database.projections) {
            _ = try reference.runner.catchUp()
            return try reference.database.pool.read { try Int.fetchOne($0, sql: "PRAGMA page_count") ?? 0 }
        }

        let models = try TallyReadModels()
        try await givenNotes(models)
        try await models.database.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA max_page_count = \(foldedPages)") }
        #expect(throws: StorageFullError.self) { try models.runner.catchUp(whileFilling: { false }) }
        #expect(try !models.database.indexNames().contains("tallyNoteByUser"))
        try await models.database.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA max_page_count = 1073741823") }
        #expect(try models.runner.catchUp() == 0)
        #expect(try models.database.indexNames().contains("tallyNoteByUser"))
        #expect(try models.database.canonicalDump() == reference.database.canonicalDump())
    }

    /// A node's first fold beside its copy of a shared log: what lands while it folds is folded, and
    /// it ends where one fold after the copy would, its indexes for reads built.
    @Test func aFoldBesideALogBeingWrittenEndsWhereAFoldAfterWould() async throws {
        let models = try TallyReadModels()
        let (runner, written) = (models.runner, Written())
        let folding = Task.detached { try runner.catchUp(whileFilling: { !written.value.load(ordering: .acquiring) }) }
        try await models.givenCountsAndAnErasure()
        written.value.store(true, ordering: .releasing)
        #expect(try await folding.value == 8)
        #expect(try models.runner.status().allSatisfy { $0.position == 8 })
        #expect(try models.database.indexNames().contains("tallyNoteByUser"))

        let plain = try TallyReadModels()
        try await plain.givenCountsAndAnErasure()
        _ = try plain.runner.catchUp()
        #expect(try models.database.canonicalDump() == plain.database.canonicalDump())
    }

    @Test func aFailedFoldStillBuildsThemAndANameNoSchemaHasDropsNothing() async throws {
        let models = try TallyReadModels()
        struct Stopped: Error {}
        #expect(throws: Stopped.self) {
            try BulkLoading.during(models.database.pool, emptied: models.database.projections) { throw Stopped() }
        }
        #expect(try models.database.indexNames().contains("tallyNoteByUser"))

        #expect(throws: DatabaseError.self) {
            try BulkLoading.deferringIndexes(["tallyNoteByUser", "noSuchIndex"], in: models.database.pool) {}
        }
        #expect(try models.database.indexNames().contains("tallyNoteByUser"))
    }
}

private final class Written: Sendable {
    let value = Atomic(false)
}

extension TallyReadModels {
    func givenCountsAndAnErasure() async throws {
        try await given(ProjectionRunnerTests.counts)
        _ = try await store.append([.userErased(UserErased(userId: 2, initiator: .operator))], to: "user-2", eventId: .timeOrdered())
    }
}

extension ReadDatabase {
    func indexNames() throws -> Set<String> {
        try read { try Set(String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")) }
    }

    func schemaSQL() throws -> Set<String> {
        try read { try Set(String.fetchAll($0, sql: "SELECT type || ' ' || name || ' ' || COALESCE(sql, '') FROM sqlite_master")) }
    }
}
