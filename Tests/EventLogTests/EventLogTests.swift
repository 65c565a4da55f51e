import Foundation
import TestSupport
import NIOConcurrencyHelpers
import Testing
import CLMDB
@testable import EventLog

private func event(_ type: String = "thing-happened", id: UUID = UUID(), actor: Int64? = nil, users: [Int64] = [], payload: String = "{}") -> NewEvent {
    NewEvent(id: id, type: type, actorUserId: actor, userIds: users, payload: Data(payload.utf8))
}

private func openLog(_ dir: TemporaryDirectory, mapSize: Int = 1 << 20) throws -> EventLog {
    try EventLog(configuration: .init(directory: dir.url.appendingPathComponent("log"), initialMapSize: mapSize))
}

/// Every test here runs on each log backend (`LogBackend`): the same semantics, proven by the same tests.
@Suite(.timeLimit(.minutes(3))) struct EventLogTests {
    @Test(arguments: LogBackend.available) func appendsGetGapFreeIncreasingPositionsAndReadBackInOrder(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }

        let first = try await log.append(to: "user-1", expectedVersion: .noStream, events: [event(payload: #"{"n":1}"#), event(payload: #"{"n":2}"#)])
        let second = try await log.append(to: "movie-7", expectedVersion: .any, events: [event(payload: #"{"n":3}"#)])

        #expect(first.positions == [1, 2])
        #expect(second.positions == [3])
        #expect(log.headPosition == 3)
        let all = try log.read(from: 1, limit: 10)
        #expect(all.map(\.position) == [1, 2, 3])
        #expect(all.map { String(decoding: $0.payload, as: UTF8.self) } == [#"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#])
        #expect(all.map(\.streamVersion) == [1, 2, 1])
        #expect(try log.read(from: 2, limit: 1).map(\.position) == [2])
        #expect(try log.read(from: 4, limit: 10).isEmpty)
    }

    @Test(arguments: LogBackend.available) func recordKeepsEveryField(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        let id = UUID()
        let at = Date(timeIntervalSince1970: 1_700_000_000.123456)
        let new = NewEvent(id: id, type: "movie-rated", schemaVersion: 3, actorUserId: 42, userIds: [7], recordedAt: at, payload: Data(#"{"r":5}"#.utf8))
        _ = try await log.append(to: "rating-42-1", expectedVersion: .noStream, events: [new])

        let stored = try #require(try log.event(at: 1))
        #expect(stored.id == id)
        #expect(stored.type == "movie-rated")
        #expect(stored.schemaVersion == 3)
        #expect(stored.streamId == "rating-42-1")
        #expect(stored.streamVersion == 1)
        #expect(stored.actorUserId == 42)
        #expect(stored.userIds == [7, 42])
        #expect(stored.recordedAtMicroseconds == 1_700_000_000_123_456)
        #expect(stored.payload == Data(#"{"r":5}"#.utf8))
    }

    @Test(arguments: LogBackend.available) func wrongExpectedVersionThrowsAndWritesNothing(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        _ = try await log.append(to: "s", expectedVersion: .noStream, events: [event()])

        await #expect(throws: EventLogError.wrongExpectedVersion(streamId: "s", expected: .noStream, actual: 1)) {
            try await log.append(to: "s", expectedVersion: .noStream, events: [event()])
        }
        await #expect(throws: EventLogError.wrongExpectedVersion(streamId: "s", expected: .exact(2), actual: 1)) {
            try await log.append(to: "s", expectedVersion: .exact(2), events: [event()])
        }
        // A multi-stream append is atomic: one bad expectation rejects all of it.
        await #expect(throws: EventLogError.self) {
            try await log.append([
                StreamAppend(streamId: "other", expectedVersion: .noStream, events: [event()]),
                StreamAppend(streamId: "s", expectedVersion: .noStream, events: [event()]),
            ])
        }
        #expect(log.headPosition == 1)
        #expect(try log.streamVersion("other") == 0)
        let next = try await log.append(to: "s", expectedVersion: .exact(1), events: [event()])
        #expect(next.positions == [2])
    }

    @Test(arguments: LogBackend.available) func concurrentWritersWithTheSameExpectationOnlyOneWins(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        _ = try await log.append(to: "contended", expectedVersion: .noStream, events: [event()])

        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 {
                group.addTask { (try? await log.append(to: "contended", expectedVersion: .exact(1), events: [event()])) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try log.streamVersion("contended") == 2)
        #expect(log.headPosition == 2)
    }

    @Test(arguments: LogBackend.available) func concurrentAppendsAreAllDurableAndGapFree(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        let positions = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for writer in 0..<64 {
                group.addTask {
                    var mine: [UInt64] = []
                    for _ in 0..<10 { mine += try await log.append(to: "w-\(writer)", expectedVersion: .any, events: [event()]).positions }
                    return mine
                }
            }
            return try await group.reduce(into: [UInt64]()) { $0 += $1 }
        }
        #expect(positions.sorted() == Array(1...640))
        for writer in 0..<64 { #expect(try log.streamVersion("w-\(writer)") == 10) }
    }

    @Test(arguments: LogBackend.available) func reappendingAnEventIdReturnsTheOriginalPositionAndWritesNothing(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        let retried = event()
        let original = try await log.append(to: "s", expectedVersion: .noStream, events: [retried])
        _ = try await log.append(to: "s", expectedVersion: .any, events: [event()])

        // The retry carries a stale expected version: the id decides, not the version.
        let again = try await log.append(to: "s", expectedVersion: .noStream, events: [retried])
        #expect(again == AppendResult(positions: original.positions, wasDuplicate: true))
        #expect(log.headPosition == 2)

        let fresh = event()
        await #expect(throws: EventLogError.partialDuplicate(eventIds: [retried.id])) {
            try await log.append(to: "s", expectedVersion: .any, events: [retried, fresh])
        }
        #expect(log.headPosition == 2)
    }

    @Test(arguments: LogBackend.available) func aRejectedAppendDoesNotDisturbOthersCommittedWithIt(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        _ = try await log.append(to: "taken", expectedVersion: .noStream, events: [event()])
        let results = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<20 {
                group.addTask {
                    let stream = i.isMultiple(of: 2) ? "taken" : "free-\(i)"
                    return (try? await log.append(to: stream, expectedVersion: .noStream, events: [event()])) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 10)
        #expect(log.headPosition == 11)
        #expect(try log.read(from: 1, limit: 100).map(\.position) == Array(1...11))
    }

    @Test(arguments: LogBackend.available) func reopensWithEverythingCommitted(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        do {
            let log = try await place.open()
            _ = try await log.append(to: "user-1", expectedVersion: .noStream, events: [event(actor: 1), event(actor: 1)])
            log.close()
        }
        let reopened = try await place.open()
        defer { reopened.close() }
        #expect(reopened.headPosition == 2)
        #expect(try reopened.streamVersion("user-1") == 2)
        let next = try await reopened.append(to: "user-1", expectedVersion: .exact(2), events: [event()])
        #expect(next.positions == [3])
    }

    @Test(arguments: LogBackend.available) func theMapGrowsWhenFull(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open(mapSize: 256 << 10)
        defer { log.close() }
        let initial = log.mapSize
        let big = String(repeating: "x", count: 4000)
        for batch in 0..<40 {
            let events = (0..<25).map { _ in event(payload: #"{"blob":"\#(big)"}"#) }
            _ = try await log.append(to: "big-\(batch)", expectedVersion: .noStream, events: events)
        }
        #expect(log.mapSize > initial)
        #expect(log.headPosition == 1000)
        #expect(try log.read(from: 1, limit: 2000).count == 1000)
    }

    @Test(arguments: LogBackend.available) func readersSeeAContiguousPrefixWhileWritesGoOn(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        let reader = Task {
            var violations = 0
            while !Task.isCancelled {
                let seen = try log.read(from: 1, limit: 100_000).map(\.position)
                if seen != Array(0..<UInt64(seen.count)).map({ $0 + 1 }) { violations += 1 }
                await Task.yield()
            }
            return violations
        }
        for i in 0..<300 { _ = try await log.append(to: "s-\(i % 7)", expectedVersion: .any, events: [event()]) }
        reader.cancel()
        #expect(try await reader.value == 0)
        #expect(try log.read(from: 1, limit: 1000).count == 300)
    }

    @Test(arguments: LogBackend.available) func readsByStreamByUserAndByStreamPrefix(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        _ = try await log.append(to: "user-1", expectedVersion: .noStream, events: [event("registered", actor: 1)])
        _ = try await log.append(to: "user-2", expectedVersion: .noStream, events: [event("registered", actor: 2)])
        _ = try await log.append(to: "friendship-1-2", expectedVersion: .noStream, events: [event("requested", actor: 1, users: [2])])
        _ = try await log.append(to: "user-1", expectedVersion: .exact(1), events: [event("renamed", actor: 1)])
        _ = try await log.append(to: "user-10", expectedVersion: .noStream, events: [event("registered", actor: 10)])

        #expect(try log.readStream("user-1").map(\.type) == ["registered", "renamed"])
        #expect(try log.readStream("user-1", fromVersion: 2).map(\.position) == [4])
        #expect(try log.readStream("user-").isEmpty)
        #expect(try log.readUser(1).map(\.position) == [1, 3, 4])
        #expect(try log.readUser(2).map(\.position) == [2, 3])
        #expect(try log.readUser(1, from: 4).map(\.position) == [4])
        #expect(try log.readUser(1, through: 3).map(\.position) == [1, 3])
        func backward(_ user: Int64, through last: UInt64, taking count: Int = .max) throws -> [UInt64] {
            var positions: [UInt64] = []
            try log.readUserBackward(user, through: last) { positions.append($0.position); return positions.count < count }
            return positions
        }
        #expect(try backward(1, through: 99) == [4, 3, 1])
        #expect(try backward(1, through: 4) == [4, 3, 1])
        #expect(try backward(1, through: 2) == [1])
        #expect(try backward(1, through: 3, taking: 1) == [3])
        #expect(try backward(2, through: 99) == [3, 2])
        #expect(try backward(10, through: 4).isEmpty)
        #expect(try backward(10, through: 99) == [5])
        #expect(try backward(3, through: 99).isEmpty)
        #expect(try log.streamIds(withPrefix: "user-") == ["user-1", "user-10", "user-2"])
    }

    @Test(arguments: LogBackend.available) func waitingForEventsWakesOnAppend(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        let returned = NIOLockedValueBox(false)
        let waiter = Task {
            await log.waitForEvents(after: 0)
            returned.withLockedValue { $0 = true }
            return log.headPosition
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!returned.withLockedValue { $0 }, "returned before anything was appended")
        _ = try await log.append(to: "s", expectedVersion: .any, events: [event()])
        #expect(await waiter.value == 1)

        let cancelled = Task { await log.waitForEvents(after: 5) }
        cancelled.cancel()
        await cancelled.value
    }

    @Test(arguments: LogBackend.available) func invalidAppendsAreRejected(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        let twice = event()
        await #expect(throws: EventLogError.self) { try await log.append(to: "s", expectedVersion: .any, events: []) }
        await #expect(throws: EventLogError.self) { try await log.append(to: "", expectedVersion: .any, events: [event()]) }
        await #expect(throws: EventLogError.self) { try await log.append(to: "s", expectedVersion: .any, events: [twice, twice]) }
        #expect(log.headPosition == 0)
    }

    @Test(arguments: LogBackend.available) func appendsAfterCloseAreRefused(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        log.close()
        await #expect(throws: EventLogError.closed) { try await log.append(to: "s", expectedVersion: .any, events: [event()]) }
    }

    @Test(arguments: LogBackend.available) func closingTwiceIsHarmlessAndReadsAfterCloseThrow(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        _ = try await log.append(to: "s", expectedVersion: .any, events: [event()])
        log.close()
        log.close()
        #expect(throws: EventLogError.closed) { try log.read(from: 1, limit: 10) }
        #expect(throws: EventLogError.closed) { try log.backup(to: place.directory.url.appendingPathComponent("copy")) }
    }

    @Test(arguments: LogBackend.available) func backupIsAConsistentCopy(_ backend: LogBackend) async throws {
        let place = try await LogPlace(backend)
        let log = try await place.open()
        defer { log.close() }
        for i in 0..<50 { _ = try await log.append(to: "s-\(i)", expectedVersion: .noStream, events: [event()]) }
        let copy = place.directory.url.appendingPathComponent("backup")
        try log.backup(to: copy)
        let restored = try EventLog(configuration: .init(directory: copy))
        defer { restored.close() }
        #expect(try restored.read(from: 1, limit: 100) == (try log.read(from: 1, limit: 100)))
    }
}

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
