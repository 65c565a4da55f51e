import EventLog
import Foundation
import Logging
import PostgresLog
import PostgresNIO
import NIOConcurrencyHelpers
import Testing
import TestSupport

private func event(_ id: UUID = UUID(), payload: String = "{}") -> NewEvent {
    NewEvent(id: id, type: "thing-happened", payload: Data(payload.utf8))
}

/// The PostgreSQL log as several nodes see it: each node an `EventLog` with a directory of its own,
/// all sharing one database. (What one node sees is `EventLogTests`, on both backends.)
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct SharedLogTests {
    @Test func nodesWritingConcurrentlyEachHoldTheWholeLogInOneOrder() async throws {
        let place = try await LogPlace(.postgres)
        var nodes: [EventLog] = []
        for node in 0..<3 { nodes.append(try await place.open("node-\(node)")) }
        defer { for node in nodes { node.close() } }

        let positions = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for writer in 0..<32 {
                let node = nodes[writer % nodes.count]
                group.addTask {
                    var mine: [UInt64] = []
                    for n in 0..<25 {
                        let result = try await node.append(to: "writer-\(writer)", expectedVersion: .exact(UInt64(n)), events: [event(payload: "\(writer)-\(n)")])
                        mine += result.positions
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(positions.sorted() == Array(1...800))

        let shared = try await PostgresSharedLog(url: try #require(place.databaseURL), product: "test")
        defer { shared.close() }
        let truth = try await shared.events(after: 0, limit: 10_000)
        #expect(truth.map(\.position) == Array(1...800))
        for node in nodes {
            try await node.catchUpWithSharedLog()
            #expect(try node.read(from: 1, limit: 10_000) == truth)
            for writer in 0..<32 { #expect(try node.streamVersion("writer-\(writer)") == 25) }
        }
    }

    /// A commit held open (here by hand, as a slow appender's would be) holds back every later
    /// position: no node ever copies a position before all those below it have committed.
    @Test func aCommitHeldOpenHoldsBackEveryLaterPosition() async throws {
        let place = try await LogPlace(.postgres)
        let writer = try await place.open("writer")
        let reader = try await place.open("reader")
        defer { writer.close(); reader.close() }
        _ = try await writer.append(to: "s", expectedVersion: .any, events: [event()])
        // The reader holds position 1 before the commit is held open: what it must not hold is 2 or 3.
        try await reader.catchUpWithSharedLog()

        let slow = Logger(label: "slow-appender")
        let client = PostgresClient(configuration: try PostgresLogLocation(url: try #require(place.databaseURL)).firstServerConfiguration)
        let later = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await client.withTransaction(logger: slow) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Int64(0x6576_656E_745F_6C67)))", logger: slow)
                try await connection.query(
                    "INSERT INTO event_log VALUES (2, \(UUID()), 'slow', 1, 'thing-happened', 1, 0, NULL, '{}', '{}'::bytea)", logger: slow
                )
                let later = Task { try await writer.append(to: "s", expectedVersion: .any, events: [event()]) }
                try await Task.sleep(for: .milliseconds(500))
                #expect(reader.headPosition == 1, "a position was copied while the one before it was uncommitted")
                #expect(writer.headPosition == 1)
                return later
            }
        }
        #expect(try await later.value.positions == [3])
        try await reader.catchUpWithSharedLog()
        #expect(try reader.read(from: 1, limit: 10).map(\.streamId) == ["s", "slow", "s"])
    }

    @Test func aRetryOnAnotherNodeIsRecognisedAndAConflictLeavesTheCopyCurrent() async throws {
        let place = try await LogPlace(.postgres)
        let a = try await place.open("a")
        let b = try await place.open("b")
        defer { a.close(); b.close() }
        let retried = event()
        let first = try await a.append(to: "order-1", expectedVersion: .noStream, events: [retried])
        let again = try await b.append(to: "order-1", expectedVersion: .noStream, events: [retried])
        #expect(again.positions == first.positions && again.wasDuplicate)

        _ = try await a.append(to: "order-2", expectedVersion: .noStream, events: [event()])
        await #expect(throws: EventLogError.wrongExpectedVersion(streamId: "order-2", expected: .noStream, actual: 1)) {
            try await b.append(to: "order-2", expectedVersion: .noStream, events: [event()])
        }
        #expect(try b.streamVersion("order-2") == 1, "the refused node decides its retry on the write that won")

        let reused = NewEvent(id: retried.id, type: "other-thing", payload: Data("{}".utf8))
        await #expect(throws: EventLogError.eventIdReused(eventId: retried.id, position: 1)) {
            try await b.append(to: "order-1", expectedVersion: .any, events: [reused])
        }
    }

    /// A node decides in one round trip on what its copy says of the streams it appends to. When
    /// another node wrote to them since (here its copy is held back), the log refuses that decision and
    /// the node decides again on what the log holds: the same refusal, the next version.
    @Test func aNodeWhoseCopyLagsDecidesOnWhatTheLogHolds() async throws {
        let place = try await LogPlace(.postgres)
        let copyHeld = NIOLockedValueBox(false)
        let a = try await place.open("a")
        let b = try await place.open("b", beforeCopy: {
            while copyHeld.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        })
        defer { a.close(); b.close() }
        /// `append` on b while its copy is held back, then let go so b can answer.
        func appendOnB(_ expected: ExpectedVersion) async throws -> AppendResult {
            #expect(b.headPosition < a.headPosition)
            let appending = Task { try await b.append(to: "s", expectedVersion: expected, events: [event()]) }
            try await Task.sleep(for: .milliseconds(300))
            copyHeld.withLockedValue { $0 = false }
            return try await appending.value
        }

        copyHeld.withLockedValue { $0 = true }
        _ = try await a.append(to: "s", expectedVersion: .noStream, events: [event()])
        _ = try await a.append(to: "s", expectedVersion: .exact(1), events: [event()])
        await #expect(throws: EventLogError.wrongExpectedVersion(streamId: "s", expected: .noStream, actual: 2)) {
            try await appendOnB(.noStream)
        }

        copyHeld.withLockedValue { $0 = true }
        _ = try await a.append(to: "s", expectedVersion: .exact(2), events: [event()])
        #expect(try await appendOnB(.any).positions == [4])
        #expect(try b.readStream("s").map(\.streamVersion) == [1, 2, 3, 4])
        try await a.catchUpWithSharedLog()
        #expect(try a.read(from: 1, limit: 10) == b.read(from: 1, limit: 10))
    }

    /// A job for one process at a time (News' feed poller): the first node to ask leads it, the other
    /// waits, and takes over once the leader's connection is gone (here: its log closed, which also
    /// ends the leader's wait to lead again, uncancelled).
    @Test func oneNodeLeadsAJobAndAnotherTakesOverWhenItGoes() async throws {
        let place = try await LogPlace(.postgres)
        let a = try await place.open("a"), b = try await place.open("b")
        defer { b.close() }
        let running = NIOLockedValueBox<[String]>([]), overlapped = NIOLockedValueBox(false)
        let job: @Sendable (String) -> @Sendable () async throws -> Void = { node in
            {
                running.withLockedValue { now in
                    if !now.isEmpty { overlapped.withLockedValue { $0 = true } }
                    now.append(node)
                }
                defer { running.withLockedValue { $0.removeAll { $0 == node } } }
                try await Task.sleep(for: .seconds(3_600))
            }
        }
        let aEnded = NIOLockedValueBox(false)
        let leaderA = Task {
            defer { aEnded.withLockedValue { $0 = true } }
            try await a.asTheOneProcess(doing: "poller", job("a"))
        }
        // A new leader starts its job only after the handover (7 s): an old one has stopped by then.
        #expect(try await Self.eventually(within: .seconds(15)) { running.withLockedValue { $0 } == ["a"] })
        let leaderB = Task { try await b.asTheOneProcess(doing: "poller", job("b")) }
        try await Task.sleep(for: .seconds(3))
        #expect(running.withLockedValue { $0 } == ["a"], "b waits while a leads")

        a.close()
        #expect(try await Self.eventually(within: .seconds(25)) { running.withLockedValue { $0 } == ["b"] }, "b takes over")
        #expect(try await Self.eventually(within: .seconds(15)) { aEnded.withLockedValue { $0 } }, "a closed log's process stops trying to lead")
        leaderA.cancel()
        if case .failure(let error) = await leaderA.result { Issue.record("a closed log's leader threw \(error)") }
        #expect(!overlapped.withLockedValue { $0 })
        leaderB.cancel()
    }

    /// Every connection to the log ended at once (its server restarted): the leader's job stops with
    /// its lock, and one node leads again; never two at once.
    @Test func afterTheServerDropsEveryConnectionOneNodeLeadsAgain() async throws {
        let place = try await LogPlace(.postgres)
        let a = try await place.open("a"), b = try await place.open("b")
        defer { a.close(); b.close() }
        let running = NIOLockedValueBox<[String]>([]), overlapped = NIOLockedValueBox(false), starts = NIOLockedValueBox(0)
        let job: @Sendable (String) -> @Sendable () async throws -> Void = { node in
            {
                running.withLockedValue { now in
                    if !now.isEmpty { overlapped.withLockedValue { $0 = true } }
                    now.append(node)
                }
                starts.withLockedValue { $0 += 1 }
                defer { running.withLockedValue { $0.removeAll { $0 == node } } }
                try await Task.sleep(for: .seconds(3_600))
            }
        }
        let leaders = [Task { try await a.asTheOneProcess(doing: "poller", job("a")) }, Task { try await b.asTheOneProcess(doing: "poller", job("b")) }]
        #expect(try await Self.eventually(within: .seconds(15)) { running.withLockedValue { $0.count } == 1 })
        try await TestPostgres.dropConnections(to: try #require(place.databaseURL))
        #expect(try await Self.eventually(within: .seconds(25)) { starts.withLockedValue { $0 } == 2 }, "a node leads again")
        try await Task.sleep(for: .seconds(5))
        #expect(running.withLockedValue { $0.count } == 1 && !overlapped.withLockedValue { $0 }, "\(running.withLockedValue { $0 })")
        for leader in leaders { leader.cancel() }
    }

    static func eventually(within timeout: Duration = .seconds(5), _ done: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try done() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try done()
    }

    /// New streams' numbers (new users' ids) come from the shared log: two nodes never hand out the
    /// same one, though neither has appended anything, and each is above the floor a node gives.
    @Test func nodesNeverHandOutTheSameStreamNumber() async throws {
        let place = try await LogPlace(.postgres)
        let a = try await place.open("a"), b = try await place.open("b")
        defer { a.close(); b.close() }
        let numbers = try await withThrowingTaskGroup(of: Int64?.self) { group in
            for n in 0..<40 {
                let node = n.isMultiple(of: 2) ? a : b
                group.addTask { try await node.sharedStreamNumber("user-", above: 0) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(numbers.compactMap { $0 }.sorted() == Array(1...40))
        #expect(try await a.sharedStreamNumber("user-", above: 100) == 101)
        #expect(try await b.sharedStreamNumber("user-", above: 0) == 102)
        #expect(try await b.sharedStreamNumber("session-", above: 0) == 1)
    }

    @Test func aDatabaseHoldingAnotherProductsLogIsRefused() async throws {
        let url = try await TestPostgres.newDatabase()
        try await PostgresSharedLog(url: url, product: "savry").close()
        await #expect {
            try await PostgresSharedLog(url: url, product: "chat")
        } throws: { error in
            "\(error)".contains("holds the event log of savry")
        }
        try await PostgresSharedLog(url: url, product: "savry").close()
    }

    @Test func aServerThatCannotBeReachedIsNamedAtOnce() async throws {
        let started = ContinuousClock.now
        await #expect {
            try await PostgresSharedLog(url: "postgres://postgres@127.0.0.1:1/nothing?sslmode=disable", product: "test")
        } throws: { error in
            "\(error)".hasPrefix("cannot reach the event log at postgres://postgres@127.0.0.1:1/nothing")
        }
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}

/// A node whose copy holds events the shared log no longer has (a standby promoted without every
/// commit, or a node pointed at another database) stops writing and says why.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct SharedLogDivergenceTests {
    @Test func aCopyAheadOfItsSharedLogStopsWritingAndSaysWhy() async throws {
        let place = try await LogPlace(.postgres)
        let node = try await place.open("node")
        for n in 0..<3 { _ = try await node.append(to: "s", expectedVersion: .exact(UInt64(n)), events: [event()]) }
        node.close()

        // Another history in another database: one event, at position 1.
        let elsewhere = try await TestPostgres.newDatabase()
        let other = try EventLog(configuration: .init(
            directory: place.directory.url.appendingPathComponent("other"), initialMapSize: 1 << 20,
            shared: try await PostgresSharedLog(url: elsewhere, product: "test")
        ))
        _ = try await other.append(to: "t", expectedVersion: .any, events: [event()])
        other.close()

        let reopened = try EventLog(configuration: .init(
            directory: place.directory.url.appendingPathComponent("node"), initialMapSize: 1 << 20,
            shared: try await PostgresSharedLog(url: elsewhere, product: "test")
        ))
        defer { reopened.close() }
        let deadline = ContinuousClock.now + .seconds(10)
        while reopened.sharedLogFailure == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let failure = try #require(reopened.sharedLogFailure?.message)
        #expect(failure.contains("no longer holds the event at position 3"), "\(failure)")
        await #expect(throws: SharedLogUnreachable.self) {
            try await reopened.append(to: "s", expectedVersion: .any, events: [event()])
        }
        #expect(try reopened.read(from: 1, limit: 10).count == 3, "nothing of the other history copied")
    }

    /// What a node copies beside the events (its key store: `SharedKeysCopyTests`) parted from the
    /// store's history: the node stops writing and copying, as for the log's own.
    @Test func aCopyBesideTheEventsThatPartedStopsTheNode() async throws {
        let place = try await LogPlace(.postgres)
        let writer = try await place.open("writer")
        let parted = NIOLockedValueBox(false)
        let node = try await place.open("node", beforeCopy: {
            if parted.withLockedValue({ $0 }) { throw EventLogError.copiedStateParted(reason: "the shared key store no longer holds the change 2") }
        })
        defer { writer.close(); node.close() }
        _ = try await writer.append(to: "s", expectedVersion: .any, events: [event()])
        #expect(try await SharedLogTests.eventually(within: .seconds(10)) { node.headPosition == 1 })

        parted.withLockedValue { $0 = true }
        _ = try await writer.append(to: "s", expectedVersion: .any, events: [event()])
        #expect(try await SharedLogTests.eventually(within: .seconds(10)) { node.sharedLogFailure != nil })
        #expect(node.sharedLogFailure?.message.contains("no longer holds the change 2: a server without every commit was promoted") == true)
        let refused = await #expect(throws: SharedLogUnreachable.self) { try await node.append(to: "t", expectedVersion: .any, events: [event()]) }
        #expect(refused?.outcomeUnknown == false, "refused before anything is written")
        #expect(node.headPosition == 1, "nothing copied after")
    }

    /// Other nodes may write past the lost events before a node's check at its start or after an
    /// outage runs: every copy finds the parted history in the events it overlaps (a), and a commit
    /// on top of a copy the log no longer holds writes nothing (b). Before, both took the new events
    /// as following their own.
    @Test func aCopyFindsTheHistoryPartedInWhatItCopiesNotOnlyAtItsStart() async throws {
        let place = try await LogPlace(.postgres)
        let a = try await place.open("a"), b = try await place.open("b")
        defer { a.close(); b.close() }
        for n in 0..<3 { _ = try await a.append(to: "s", expectedVersion: .exact(UInt64(n)), events: [event()]) }
        try await b.catchUpWithSharedLog()
        // What a standby promoted without the last commit holds.
        let slow = Logger(label: "lost-commit")
        let client = PostgresClient(configuration: try PostgresLogLocation(url: try #require(place.databaseURL)).firstServerConfiguration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await client.query("DELETE FROM event_log WHERE position = 3", logger: slow)
        }

        // b's commit on top of its copy, whose last event the log lost: refused, nothing written.
        let refused = await #expect(throws: SharedLogUnreachable.self) { try await b.append(to: "t", expectedVersion: .any, events: [event()]) }
        #expect(refused?.outcomeUnknown == false)
        #expect(b.sharedLogFailure?.message.contains("no longer holds the event at position 3") == true, "\(b.sharedLogFailure?.message ?? "no failure")")
        // A node that never held the lost event writes at 3 and 4; a reads them.
        let c = try await place.open("c")
        defer { c.close() }
        for _ in 0..<2 { _ = try await c.append(to: "u", expectedVersion: .any, events: [event()]) }
        #expect(try await SharedLogTests.eventually(within: .seconds(10)) { a.sharedLogFailure != nil })
        #expect(a.sharedLogFailure?.message.contains("position 3") == true)
        #expect(try a.read(from: 1, limit: 10).map(\.streamId) == ["s", "s", "s"], "nothing of the other history copied")
        await #expect(throws: SharedLogUnreachable.self) { try await a.append(to: "s", expectedVersion: .any, events: [event()]) }
        // Catching up with a log it can no longer copy says why instead of waiting for ever (a node's start).
        await #expect(throws: SharedLogUnreachable.self) { try await a.catchUpWithSharedLog() }
    }

    /// The new history may reach exactly as far as a node's copy, with nothing written after it, or only
    /// by that node (whose commits follow its copy's head unread): no event it copies overlaps the lost
    /// ones, and it saw no outage to check after. It finds them all the same, while the log is quiet.
    @Test func aCopyWhoseLastEventsTheLogGaveToOthersFindsItWithNothingMoreWritten() async throws {
        let (place, a, c) = try await Self.copyWhoseLastEventsTheLogGaveToOthers()
        defer { a.close(); c.close(); withExtendedLifetime(place) {} }
        #expect(try await SharedLogTests.eventually(within: .seconds(10)) { a.sharedLogFailure != nil })
        #expect(a.sharedLogFailure?.message.contains("no longer holds the event at position 3") == true, "\(a.sharedLogFailure?.message ?? "no failure")")
        await #expect(throws: SharedLogUnreachable.self) { try await a.append(to: "s", expectedVersion: .any, events: [event()]) }
    }

    /// ... and a commit it makes on top of its copy, before it finds that, is refused with nothing written.
    @Test func aCommitOnTopOfACopyWhoseLastEventsTheLogGaveToOthersWritesNothing() async throws {
        let (place, a, c) = try await Self.copyWhoseLastEventsTheLogGaveToOthers()
        defer { a.close(); c.close(); withExtendedLifetime(place) {} }
        let refused = await #expect(throws: SharedLogUnreachable.self) { try await a.append(to: "s", expectedVersion: .any, events: [event()]) }
        #expect(refused?.outcomeUnknown == false && refused?.reason.contains("no longer holds the event at position 3") == true, "\(String(describing: refused))")
        #expect(try await c.currentSharedHead() == 3, "nothing written")
    }

    /// Node a's copy holds positions 1–3; the log lost 2 and 3 (a standby promoted without them), and
    /// node c wrote two other events there.
    private static func copyWhoseLastEventsTheLogGaveToOthers() async throws -> (LogPlace, EventLog, EventLog) {
        let place = try await LogPlace(.postgres)
        let a = try await place.open("a")
        for n in 0..<3 { _ = try await a.append(to: "s", expectedVersion: .exact(UInt64(n)), events: [event()]) }
        let client = PostgresClient(configuration: try PostgresLogLocation(url: try #require(place.databaseURL)).firstServerConfiguration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await client.query("DELETE FROM event_log WHERE position > 1", logger: Logger(label: "lost-commits"))
        }
        let c = try await place.open("c")
        for _ in 0..<2 { _ = try await c.append(to: "u", expectedVersion: .any, events: [event()]) }
        #expect(try await c.currentSharedHead() == a.headPosition, "the log holds others' events where a's copy holds the lost ones")
        return (place, a, c)
    }
}
