import Foundation
import TestSupport
import Testing
import CLMDB
@testable import EventLog

@Suite(.timeLimit(.minutes(3))) struct TimeOrderedIdTests {
    @Test func idsAreVersion7AndSortByTheirMillisecond() {
        let start = Date(timeIntervalSince1970: 1_705_314_600)
        let ids = (0..<200).map { UUID.timeOrdered(at: start.addingTimeInterval(Double($0) * 0.002)) }
        for id in ids {
            #expect(id.uuid.6 >> 4 == 7)
            #expect(id.uuid.8 >> 6 == 0b10)
        }
        let bytes = ids.map { withUnsafeBytes(of: $0.uuid) { Array($0) } }
        #expect(bytes == bytes.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(Array(bytes[0].prefix(6)) == [0x01, 0x8D, 0x0C, 0xAB, 0xC4, 0x40])
        #expect(Set(ids).count == ids.count)
    }
}

@Suite(.timeLimit(.minutes(3))) struct StreamIndexTests {
    @Test func streamVersionsAndIdsComeFromTheStreamIndex() async throws {
        let dir = try TemporaryDirectory()
        let log = try openLog(dir)
        defer { log.close() }
        for (stream, count) in [("user-1", 3), ("user-10", 1), ("user-2", 2), ("users", 1), ("movie-1", 4)] {
            for _ in 0..<count { _ = try await log.append(to: stream, expectedVersion: .any, events: [event()]) }
        }
        #expect(try ["user-1", "user-10", "user-2", "users", "movie-1", "user-", "user-3", "m"].map(log.streamVersion) == [3, 1, 2, 1, 4, 0, 0, 0])
        #expect(try log.streamIds(withPrefix: "user-") == ["user-1", "user-10", "user-2"])
        #expect(try log.streamIds(withPrefix: "") == ["movie-1", "user-1", "user-10", "user-2", "users"])
        await #expect(throws: EventLogError.self) { try await log.append(to: "user-10", expectedVersion: .exact(2), events: [event()]) }
        _ = try await log.append(to: "user-10", expectedVersion: .exact(1), events: [event()])
    }
}

/// The index lives in `log/index/`, is not synced, and is rebuilt or caught up from the events.
@Suite(.timeLimit(.minutes(3))) struct LogIndexTests {
    /// What every test here checks after reopening: the log answers as the events say.
    private func expectAnswersFromTheEvents(_ log: EventLog, retried: NewEvent, at position: UInt64) async throws {
        #expect(try log.streamVersion("user-1") == 3)
        #expect(try log.readStream("user-1").map(\.position) == [1, 2, 3])
        #expect(try log.readUser(7).map(\.position) == [1, 3])
        #expect(try log.streamIds(withPrefix: "") == ["user-1"])
        let again = try await log.append(to: "user-1", expectedVersion: .noStream, events: [retried])
        #expect(again == AppendResult(positions: [position], wasDuplicate: true))
        await #expect(throws: EventLogError.self) { try await log.append(to: "user-1", expectedVersion: .exact(2), events: [event()]) }
        #expect(try await log.append(to: "user-1", expectedVersion: .exact(3), events: [event(users: [7])]).positions == [4])
        #expect(try log.readUser(7).map(\.position) == [1, 3, 4])
    }

    /// Three events in `user-1` (the first and last concern user 7); returns the last one.
    private func appendThree(_ log: EventLog) async throws -> NewEvent {
        let last = event(users: [7])
        _ = try await log.append(to: "user-1", expectedVersion: .noStream, events: [event(users: [7]), event()])
        _ = try await log.append(to: "user-1", expectedVersion: .exact(2), events: [last])
        return last
    }

    @Test func anIndexBehindTheLogCatchesUpWhenItOpens() async throws {
        let dir = try TemporaryDirectory()
        let index = dir.url.appendingPathComponent("log/index")
        let behind = dir.url.appendingPathComponent("index-behind")
        var log = try openLog(dir)
        let last = event(users: [7])
        _ = try await log.append(to: "user-1", expectedVersion: .noStream, events: [event(users: [7]), event()])
        log.close()
        // As if the process died between the log's commit of the next event and the index's.
        try FileManager.default.copyItem(at: index, to: behind)
        log = try openLog(dir)
        _ = try await log.append(to: "user-1", expectedVersion: .exact(2), events: [last])
        log.close()
        try FileManager.default.removeItem(at: index)
        try FileManager.default.moveItem(at: behind, to: index)

        log = try openLog(dir)
        defer { log.close() }
        try await expectAnswersFromTheEvents(log, retried: last, at: 3)
    }

    @Test func anIndexWrittenDuringAnotherBootIsRebuilt() async throws {
        let dir = try TemporaryDirectory()
        let index = dir.url.appendingPathComponent("log/index")
        var log = try openLog(dir)
        let last = try await appendThree(log)
        log.close()
        // A machine crash may tear what was never synced: the index must not even be read.
        try Data("another-boot".utf8).write(to: index.appendingPathComponent("boot-id"))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: index.appendingPathComponent("data.mdb").path)[.size] as? Int)
        try Data(repeating: 0xA5, count: size).write(to: index.appendingPathComponent("data.mdb"))

        log = try openLog(dir)
        defer { log.close() }
        try await expectAnswersFromTheEvents(log, retried: last, at: 3)
    }

    @Test func anIndexAheadOfTheLogIsRebuilt() async throws {
        let dir = try TemporaryDirectory()
        let logDirectory = dir.url.appendingPathComponent("log")
        var log = try openLog(dir)
        let last = try await appendThree(log)
        let early = dir.url.appendingPathComponent("early")
        try log.backup(to: early)
        let later = event()
        _ = try await log.append(to: "user-1", expectedVersion: .exact(3), events: [later])
        log.close()
        // The log's file goes back (restored from a copy) while its index stays as it was.
        try FileManager.default.removeItem(at: logDirectory.appendingPathComponent("data.mdb"))
        try FileManager.default.copyItem(at: early.appendingPathComponent("data.mdb"), to: logDirectory.appendingPathComponent("data.mdb"))

        log = try openLog(dir)
        defer { log.close() }
        #expect(log.headPosition == 3)
        // The index must not claim that the lost event is recorded: appending it again records it.
        #expect(try await log.append(to: "user-1", expectedVersion: .exact(3), events: [later]) == AppendResult(positions: [4], wasDuplicate: false))
        #expect(try log.readStream("user-1").map(\.id) == (try log.read(from: 1, limit: 10).map(\.id)))
        #expect(try await log.append(to: "user-1", expectedVersion: .noStream, events: [last]) == AppendResult(positions: [3], wasDuplicate: true))
    }

    /// A command opening the log beside a running server reads the log's head, and the server may
    /// append and index before the command opens the index: that index is the live one, not torn.
    @Test func anIndexAheadOfAHeadReadBeforeAnotherAppendIsKept() async throws {
        let dir = try TemporaryDirectory()
        let logDirectory = dir.url.appendingPathComponent("log")
        let log = try openLog(dir)
        let last = try await appendThree(log)
        log.close()
        let live = logDirectory.appendingPathComponent("index/live")
        try Data().write(to: live)

        let environment = try LMDBEnvironment(path: logDirectory.path, initialMapSize: 1 << 20, maxDatabases: 8)
        defer { environment.close() }
        let index = try LogIndex.open(
            logDirectory: logDirectory, initialMapSize: 1 << 20, log: environment, store: try LogStore(environment: environment), logHead: 1
        )
        defer { index.environment.close() }
        #expect(FileManager.default.fileExists(atPath: live.path), "the index directory was deleted and made again")
        #expect(try index.environment.read { try index.position(ofEvent: last.id, $0) } == 3)
    }

    @Test func oneCommitCanHoldTheSameStreamAndEventTwice() async throws {
        let dir = try TemporaryDirectory()
        let log = try openLog(dir)
        defer { log.close() }
        let shared = event()
        // Submitted together, so the writer gathers them into one commit: later requests see what
        // earlier ones in the same commit appended.
        async let first = log.append(to: "s", expectedVersion: .noStream, events: [shared])
        async let second = log.append(to: "s", expectedVersion: .noStream, events: [shared])
        async let third = log.append(to: "s", expectedVersion: .any, events: [event()])
        let results = try await [first, second, third]
        #expect(results.filter(\.wasDuplicate).count == 1)
        #expect(Set(results.map(\.positions)).count == 2)
        #expect(try log.streamVersion("s") == 2 && log.headPosition == 2)
    }

    @Test func aLogWithItsIndexesInsideDropsThemAndBuildsTheIndex() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.url.appendingPathComponent("log")
        var log = try openLog(dir)
        let last = try await appendThree(log)
        log.close()
        // The layout before the index moved out: its trees were in the log's own environment.
        try FileManager.default.removeItem(at: path.appendingPathComponent("index"))
        let environment = try LMDBEnvironment(path: path.path, initialMapSize: 1 << 20, maxDatabases: 8)
        for former in ["streamHeads", "eventIds", "streams", "userEvents"] {
            let database = try environment.openDatabase(named: former)
            try environment.write { try $0.put(database, key: Array("stale".utf8), value: RecordCodec.key(99)) }
        }
        environment.close()

        log = try openLog(dir)
        try await expectAnswersFromTheEvents(log, retried: last, at: 3)
        log.close()
        let reopened = try LMDBEnvironment(path: path.path, initialMapSize: 1 << 20, maxDatabases: 8)
        defer { reopened.close() }
        let left = try reopened.read { txn in
            ["streamHeads", "eventIds", "streams", "userEvents"].filter { name in
                var dbi: MDB_dbi = 0
                return mdb_dbi_open(txn.pointer, name, 0, &dbi) == 0
            }
        }
        #expect(left.isEmpty)
    }
}
