import CLMDB
import Foundation
import TestSupport
import Testing
@testable import EventLog

/// A backup's head is read from the copy, opened read-only (`readOnlyCopy`, which `backup` uses):
/// nothing is written into it, not even LMDB's lock file.
@Suite struct BackupTests {
    @Test func aCopyOpenedReadOnlyIsReadWithoutWritingIntoIt() async throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory)
        defer { log.close() }
        for index in 0..<5 { _ = try await log.append(to: "s-\(index)", expectedVersion: .noStream, events: [event()]) }
        let copy = directory.url.appendingPathComponent("backup")
        #expect(try log.backup(to: copy) == 5)
        let written = try Data(contentsOf: copy.appendingPathComponent("data.mdb"))

        let opened = try LMDBEnvironment(path: copy.path, initialMapSize: 1 << 20, maxDatabases: 8, readOnlyCopy: true)
        defer { opened.close() }
        #expect(try opened.read(LogStore.lastPosition(readOnly:)) == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy.path) == ["data.mdb"])
        #expect(throws: (any Error).self) { try opened.write { _ in } }
        #expect(try Data(contentsOf: copy.appendingPathComponent("data.mdb")) == written)
    }

    @Test func anEmptyLogsBackupHasHeadZero() throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory)
        defer { log.close() }
        #expect(try log.backup(to: directory.url.appendingPathComponent("backup")) == 0)
    }
}
