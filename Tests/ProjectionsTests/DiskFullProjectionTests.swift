import ReadModels
import NuvieCommands
import EventLog
import Foundation
import GRDB
import Logging
import NIOConcurrencyHelpers
import TestSupport
import Testing
@testable import NuvieProjections

/// The read models on a real, small tmpfs that is full while the runner folds: no projection is
/// marked failed, the runner waits, and it catches up by itself once space is freed.
@Suite(.serialized) struct DiskFullProjectionTests {
    @Test(.enabled(if: TmpfsMount.isPermitted, "mounting a tmpfs needs root: disk-full test skipped"), .timeLimit(.minutes(3)))
    func aFullDiskStallsTheRunnerWithoutFailingAProjectionAndItResumesWhenSpaceReturns() async throws {
        let directory = try TemporaryDirectory()
        let log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent("log"), initialMapSize: 64 << 20))
        defer { log.close() }
        let keys = try testKeyStore(in: directory)
        _ = try await MovieLensImporter(store: NuvieStore(log: log, personalData: keys)).importDirectory(try movieLensSubset(ratings: 4_000, in: directory.url))

        let disk = try TmpfsMount(at: directory.url.appendingPathComponent("disk"), megabytes: 32)
        defer { disk.unmount() }
        let database = try ReadDatabase(path: disk.url.appendingPathComponent("read/read.sqlite").path)
        defer { try? database.close() }
        let filler = disk.url.appendingPathComponent("filler")
        try disk.fill(with: filler)

        let runner = try ProjectionRunner(log: log, personalData: keys, database: database, logger: Logger(label: "test"))
        let stopped = StoppedFlag()
        let running = Task {
            defer { stopped.value.withLockedValue { $0 = true } }
            try await runner.run()
        }
        defer { running.cancel() }
        try await Self.waitUntil { runner.storageFailure != nil || stopped.value.withLockedValue { $0 } }
        let failure = try #require(runner.storageFailure)
        #expect(failure.error.store == .readModels)
        #expect(try runner.status().allSatisfy { $0.failedPosition == nil })
        #expect(runner.appliedPosition < log.headPosition)

        try FileManager.default.removeItem(at: filler)
        try await Self.waitUntil { runner.appliedPosition == log.headPosition || stopped.value.withLockedValue { $0 } }
        #expect(runner.appliedPosition == log.headPosition)
        #expect(try runner.status().allSatisfy { $0.failedPosition == nil && $0.position == Int64(log.headPosition) })
        #expect(runner.storageFailure == nil)
        running.cancel()
        _ = await running.result

        let rebuilt = try ReadDatabase(path: directory.url.appendingPathComponent("rebuild/read.sqlite").path)
        defer { try? rebuilt.close() }
        try ProjectionRunner(log: log, personalData: keys, database: rebuilt, logger: Logger(label: "test")).catchUp()
        #expect(try database.canonicalDump() == rebuilt.canonicalDump())
    }

    static func waitUntil(_ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
    }
}

private final class StoppedFlag: Sendable {
    let value = NIOLockedValueBox(false)
}

/// Which SQLite errors count as a full disk; needs no root, so it runs everywhere.
@Suite struct SQLiteStorageFullMappingTests {
    @Test func sqliteFullIsAFullDiskAndOtherErrorsAreNot() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("read.sqlite").path
        let full = StorageFullError.sqlite(DatabaseError(resultCode: .SQLITE_FULL), store: .readModels, path: path)
        #expect(full?.store == .readModels)
        #expect(full?.path == path)
        // An I/O error on a filesystem with room is not a full disk.
        #expect(StorageFullError.sqlite(DatabaseError(resultCode: .SQLITE_IOERR), store: .readModels, path: path) == nil)
        #expect(StorageFullError.sqlite(DatabaseError(resultCode: .SQLITE_CONSTRAINT), store: .readModels, path: path) == nil)
        #expect(throws: StorageFullError.self) {
            try StorageFullError.mappingSQLite(store: .readModels, path: path) { throw DatabaseError(resultCode: .SQLITE_FULL) }
        }
    }
}
