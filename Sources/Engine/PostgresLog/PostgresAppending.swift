import EventLog
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOFoundationCompat
import PostgresNIO

/// Appending to the log in PostgreSQL: every commit takes the append lock and reads the head under
/// it (`event_log_append_on_copy`), so positions are gap-free and commit in order, and writes only on
/// top of a log that holds the committing node's copy.
extension PostgresSharedLog {
    public typealias Committed = (decisions: [Result<AppendDecision, EventLogError>], head: UInt64)

    /// Retried within `failoverWait` when no server could be reached or the outcome is unknown: the
    /// same requests, under the same event ids, so a commit that did happen is recognised
    /// (`alreadyRecorded`) and never made twice.
    /// A failure is said to leave the outcome unknown only once some attempt sent what commits: one
    /// that never reached the server, or failed inside its transaction, saved nothing.
    public func append(_ requests: [[StreamAppend]], predicted: [String: UInt64]?, onTopOf copied: CopiedEvent?) async throws -> Committed {
        let deadline = ContinuousClock.now + failoverWait
        let commitSent = CommitSent()
        var retries = 0
        while true {
            let attempt = commitSent.begin()
            do {
                let committed = try await bounded(outcomeUnknown: commitSent.giveUp()) { [self] client in
                    if let predicted, let committed = try await commitAsPredicted(requests, predicted, copied, on: client, commitSent, attempt) {
                        commitsAsPredicted.increment()
                        return committed
                    }
                    commitsAfterReading.increment()
                    return try await commitAfterReading(requests, copied, on: client, commitSent, attempt)
                }
                if retries > 0 { reporter.notice("append went through after retries", metadata: ["retries": "\(retries)"]) }
                return committed
            } catch let unreachable as SharedLogUnreachable where ContinuousClock.now < deadline {
                // Once per failover, not every 100 ms of it.
                if retries == 0 { reporter.warning("append retried until a server takes it", metadata: ["reason": "\(unreachable.reason)"]) }
                retries += 1
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Decides on the node's prediction and commits in one statement, which writes only if, under the
    /// lock, the log holds none of the event ids and every stream at its predicted version: then the
    /// decisions are the ones the log's contents give, at positions after its head. Nil when the
    /// prediction was wrong; nothing was written.
    private func commitAsPredicted(
        _ requests: [[StreamAppend]], _ predicted: [String: UInt64], _ copied: CopiedEvent?, on client: PostgresClient, _ commitSent: CommitSent,
        _ attempt: Int
    ) async throws -> Committed? {
        var lookups = KnownEvents()
        lookups.versions = predicted
        let decided = try Self.decide(requests, after: 0, in: lookups)
        let ids = requests.flatMap { $0.flatMap { $0.events.map(\.id) } }
        return try await client.withConnection { [self] connection in
            try connection.requireOpen(at: location, "the connection")
            try commitSent.mark(attempt)
            let rows = try await connection.query(Self.appendCall(decided.written, after: 0, onTopOf: copied, expecting: Array(predicted), ids: ids), logger: logger)
            var committedHead: Int64?
            var parted = false
            for try await (head, appended, onOtherHistory) in rows.decode((Int64, Bool, Bool).self) {
                if appended { committedHead = head }
                parted = onOtherHistory
            }
            guard let committedHead else {
                commitSent.answered(attempt)
                if parted, let copied { throw EventLogError.historyParted(position: copied.position) }
                return nil
            }
            try await connection.waitForCommit(logger: logger)
            return decided.shifted(by: UInt64(committedHead))
        }
    }

    /// Takes the lock and reads what the append rules need, decides, and commits, in one transaction.
    private func commitAfterReading(
        _ requests: [[StreamAppend]], _ copied: CopiedEvent?, on client: PostgresClient, _ commitSent: CommitSent, _ attempt: Int
    ) async throws -> Committed {
        try await client.withTransaction(logger: logger) { connection in
            let (head, known) = try await lockForAppend(requests, connection)
            let decided = try Self.decide(requests, after: head, in: known)
            try await insert(decided.written, after: head, onTopOf: copied, connection)
            // What follows is the COMMIT: from here a failure may have saved it.
            try commitSent.mark(attempt)
            return (decided.decisions, decided.head)
        }
    }

    /// Writes events another log already decided (`log-copy` moving a log here), at their own
    /// positions, which must follow this log's head. Refused, writing nothing, when they do not.
    public func importRecorded(_ events: [RecordedEvent]) async throws {
        guard let first = events.first else { return }
        try await primary.current().client.withTransaction(logger: logger) { connection in
            let (head, _) = try await lockForAppend([], connection)
            guard first.position == head + 1 else {
                throw EventLogError.invalidAppend("position \(first.position) does not follow the head \(head) of \(location)")
            }
            try await insert(events, after: head, onTopOf: nil, connection)
        }
    }

    private static func decide(_ requests: [[StreamAppend]], after head: UInt64, in lookups: KnownEvents) throws -> Decided {
        var known = lookups
        let now = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
        var decided = Decided(head: head)
        for request in requests {
            do {
                let decision = try AppendPlanner.decide(request, after: decided.head, now: now, in: known)
                if case .write(let events) = decision {
                    known.add(events)
                    decided.written += events
                    decided.head = events.last?.position ?? decided.head
                }
                decided.decisions.append(.success(decision))
            } catch let refused as EventLogError {
                decided.decisions.append(.failure(refused))
            }
        }
        return decided
    }

    /// Takes the append lock, then reads the head and what the append rules need for the whole commit:
    /// one round trip (`event_log_lock_for_append`, schema step 3). The events already recorded under
    /// the requests' ids, only there when a request is a retry, take a second.
    private func lockForAppend(_ requests: [[StreamAppend]], _ connection: PostgresConnection) async throws -> (head: UInt64, known: KnownEvents) {
        let ids = requests.flatMap { $0.flatMap { $0.events.map(\.id) } }
        let streams = Array(Set(requests.flatMap { $0.map(\.streamId) }))
        var known = KnownEvents()
        var head: UInt64 = 0
        var recorded: [Int64] = []
        let rows = try await connection.query("SELECT head, versions, known FROM event_log_lock_for_append(\(Self.appendLock), \(ids), \(streams))", logger: logger)
        for try await (position, versions, positions) in rows.decode((Int64, [Int64], [Int64]).self) {
            head = UInt64(position)
            for (stream, version) in zip(streams, versions) { known.versions[stream] = UInt64(version) }
            recorded = positions
        }
        if !recorded.isEmpty {
            known.add(try await Self.decode(connection.query("SELECT \(unescaped: Self.columns) FROM event_log WHERE position = ANY(\(recorded))", logger: logger)))
        }
        return (head, known)
    }

    /// Under the lock this transaction holds: the function finds the same head, and expects nothing but
    /// the copy's last event.
    private func insert(_ events: [RecordedEvent], after head: UInt64, onTopOf copied: CopiedEvent?, _ connection: PostgresConnection) async throws {
        guard !events.isEmpty else { return }
        let rows = try await connection.query(Self.appendCall(events, after: head, onTopOf: copied, expecting: [], ids: []), logger: logger)
        for try await (_, _, parted) in rows.decode((Int64, Bool, Bool).self) where parted {
            if let copied { throw EventLogError.historyParted(position: copied.position) }
        }
    }

    /// One statement of a fixed shape whatever the number of events (columns as arrays, so the server
    /// parses fifteen parameters, not ten per event). Each event's position is taken as an offset from
    /// `base`; the function writes it at that offset from the head it reads under the lock, and
    /// announces the new head.
    private static func appendCall(
        _ events: [RecordedEvent], after base: UInt64, onTopOf copied: CopiedEvent?, expecting streams: [(key: String, value: UInt64)], ids: [UUID]
    ) -> PostgresQuery {
        let actors = "{" + events.map { $0.actorUserId.map(String.init) ?? "NULL" }.joined(separator: ",") + "}"
        let users = events.map { "{" + $0.userIds.map(String.init).joined(separator: ",") + "}" }
        return """
            SELECT head, appended, parted FROM event_log_append_on_copy(
                \(appendLock), \(channel), \(Int64(copied?.position ?? 0)), \(copied?.id)::uuid,
                \(streams.map(\.key))::text[], \(streams.map { Int64($0.value) })::bigint[], \(ids)::uuid[],
                \(events.map { Int64($0.position - base) })::bigint[], \(events.map(\.id))::uuid[], \(events.map(\.streamId))::text[],
                \(events.map { Int64($0.streamVersion) })::bigint[], \(events.map(\.type))::text[],
                \(events.map { Int32($0.schemaVersion) })::integer[], \(events.map(\.recordedAtMicroseconds))::bigint[],
                \(actors)::bigint[], \(users)::text[], \(events.map { ByteBuffer(data: $0.payload) })::bytea[]
            )
            """
    }
}

/// One commit's decisions, and the events they write, at positions after `head` as it was decided on.
private struct Decided {
    var decisions: [Result<AppendDecision, EventLogError>] = []
    var written: [RecordedEvent] = []
    var head: UInt64

    /// The same decisions, `offset` positions further on: decided after 0, written after the head.
    func shifted(by offset: UInt64) -> PostgresSharedLog.Committed {
        let decisions = decisions.map { decision in
            decision.map { decided -> AppendDecision in
                switch decided {
                case .alreadyRecorded(let positions): .alreadyRecorded(positions: positions.map { $0 + offset })
                case .write(let events): .write(events.map { $0.moved(by: offset) })
                }
            }
        }
        return (decisions, head + offset)
    }
}

private extension RecordedEvent {
    func moved(by offset: UInt64) -> RecordedEvent {
        var moved = self
        moved.position += offset
        return moved
    }
}

/// The events and stream versions one commit's requests touch, plus what the commit decided so far.
private struct KnownEvents: AppendLookups {
    private var positions: [UUID: UInt64] = [:]
    private var events: [UInt64: RecordedEvent] = [:]
    var versions: [String: UInt64] = [:]

    mutating func add(_ recorded: [RecordedEvent]) {
        for event in recorded {
            positions[event.id] = event.position
            events[event.position] = event
            versions[event.streamId] = max(versions[event.streamId] ?? 0, event.streamVersion)
        }
    }

    func position(ofEvent id: UUID) -> UInt64? { positions[id] }
    func streamVersion(_ streamId: String) -> UInt64 { versions[streamId] ?? 0 }
    func event(at position: UInt64) -> RecordedEvent? { events[position] }
}

/// Whether an append may have committed, over its attempts: an attempt marks before it sends what
/// commits, and is answered when that wrote nothing (a predicted commit refused). When an attempt fails
/// or is given up (`giveUp`), what it had in flight may have committed, and it may send nothing more:
/// an attempt abandoned at its deadline still runs, and must not commit after the caller was told
/// nothing was saved.
final class CommitSent: Sendable {
    private struct State {
        var attempt = 0
        var inFlight = false
        var mayHaveCommitted = false
    }

    struct GivenUp: Error {}

    private let state = NIOLockedValueBox(State())

    func begin() -> Int { state.withLockedValue { $0.attempt } }

    func mark(_ attempt: Int) throws {
        try state.withLockedValue { state in
            guard state.attempt == attempt else { throw GivenUp() }
            state.inFlight = true
        }
    }

    func answered(_ attempt: Int) {
        state.withLockedValue { state in if state.attempt == attempt { state.inFlight = false } }
    }

    /// Ends the current attempt; whether any attempt so far may have committed.
    func giveUp() -> Bool {
        state.withLockedValue { state in
            state.mayHaveCommitted = state.mayHaveCommitted || state.inFlight
            state.inFlight = false
            state.attempt += 1
            return state.mayHaveCommitted
        }
    }
}
