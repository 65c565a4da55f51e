import Foundation
import TestSupport
import NIOConcurrencyHelpers
import Testing
@testable import EventLog

func event(_ type: String = "thing-happened", id: UUID = UUID(), actor: Int64? = nil, users: [Int64] = [], payload: String = "{}") -> NewEvent {
    NewEvent(id: id, type: type, actorUserId: actor, userIds: users, payload: Data(payload.utf8))
}

func openLog(_ dir: TemporaryDirectory, mapSize: Int = 1 << 20) throws -> EventLog {
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

        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 {
                group.addTask { try await appendedOrConflicted { _ = try await log.append(to: "contended", expectedVersion: .exact(1), events: [event()]) } }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
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
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<20 {
                group.addTask {
                    let stream = i.isMultiple(of: 2) ? "taken" : "free-\(i)"
                    return try await appendedOrConflicted { _ = try await log.append(to: stream, expectedVersion: .noStream, events: [event()]) }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
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
        // More than a record can count: refused, where they once stopped the LMDB log's writer.
        for uncountable in [NewEvent(type: "t", userIds: Array(1...65_535), payload: Data()), NewEvent(type: String(repeating: "t", count: 65_536), payload: Data())] {
            await #expect(throws: EventLogError.self) { try await log.append(to: "s", expectedVersion: .any, events: [uncountable]) }
        }
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

    /// A log copied only in part (a backup taken off the machine that stopped short) is refused when
    /// opened, naming its file: before, the first read past the file's end was a SIGBUS.
    @Test func aLogCutShortIsRefusedWhenOpened() async throws {
        let directory = try TemporaryDirectory()
        let log = try EventLog(configuration: .init(directory: directory.url))
        for i in 0..<200 { _ = try await log.append(to: "s-\(i)", expectedVersion: .noStream, events: [event(payload: #"{"t":"\#(String(repeating: "x", count: 500))"}"#)]) }
        log.close()
        let file = directory.url.appendingPathComponent("data.mdb")
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 20_000)
        try handle.close()
        do {
            _ = try EventLog(configuration: .init(directory: directory.url))
            Issue.record("a log cut short opened")
        } catch let error as LMDBError {
            #expect(error.description.contains("data.mdb is 20000 bytes"), "\(error)")
        }
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

/// true when `append` appended, false when it was refused for the stream's version; any other
/// failure fails the test.
private func appendedOrConflicted(_ append: () async throws -> Void) async throws -> Bool {
    do {
        try await append()
        return true
    } catch EventLogError.wrongExpectedVersion {
        return false
    }
}
