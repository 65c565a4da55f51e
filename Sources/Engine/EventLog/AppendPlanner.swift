import Foundation

/// What a log already holds, as the append rules need to see it. The embedded log answers from its
/// index; a shared log from what it read under its append lock.
public protocol AppendLookups {
    func position(ofEvent id: UUID) throws -> UInt64?
    func streamVersion(_ streamId: String) throws -> UInt64
    func event(at position: UInt64) throws -> RecordedEvent?
}

/// What one append request does to a log.
public enum AppendDecision: Sendable, Equatable {
    /// Every event id is already recorded for these same events: a retry, nothing to write.
    case alreadyRecorded(positions: [UInt64])
    /// These events, at the positions right after the head, in order.
    case write([RecordedEvent])

    public var result: AppendResult {
        switch self {
        case .alreadyRecorded(let positions): AppendResult(positions: positions, wasDuplicate: true)
        case .write(let events): AppendResult(positions: events.map(\.position), wasDuplicate: false)
        }
    }
}

/// The append rules, in one place for every log backend, so each refuses and accepts the same
/// requests: the whole request is checked before anything is decided, so a refused request writes
/// nothing.
public enum AppendPlanner {
    /// - Parameters:
    ///   - head: the log's last position, counting what earlier requests of the same commit decided.
    ///   - now: microseconds since 1970, for events that carry no time of their own.
    public static func decide(_ appends: [StreamAppend], after head: UInt64, now: Int64, in log: some AppendLookups) throws -> AppendDecision {
        let newEvents = appends.flatMap(\.events)
        guard !newEvents.isEmpty else { throw EventLogError.invalidAppend("no events") }
        guard Set(newEvents.map(\.id)).count == newEvents.count else { throw EventLogError.invalidAppend("an event id appears twice") }
        for append in appends {
            guard !append.streamId.isEmpty, append.streamId.utf8.count <= 400, !append.streamId.utf8.contains(0) else {
                throw EventLogError.invalidAppend("stream id must be 1–400 bytes without NUL")
            }
        }
        // The record's layout counts both in 16 bits; the actor is one more user.
        guard newEvents.allSatisfy({ $0.type.utf8.count <= UInt16.max && $0.userIds.count < UInt16.max }) else {
            throw EventLogError.invalidAppend("an event's type must be at most 65,535 bytes, and it may concern at most 65,534 users")
        }

        let known = try newEvents.map { try log.position(ofEvent: $0.id) }
        let recorded = known.compactMap { $0 }
        if recorded.count == newEvents.count {
            try expectSameEvents(appends, recordedAt: recorded, in: log)
            return .alreadyRecorded(positions: recorded)
        }
        if !recorded.isEmpty {
            throw EventLogError.partialDuplicate(eventIds: zip(newEvents, known).filter { $0.1 != nil }.map(\.0.id))
        }

        // A stream may appear more than once: each expectation is checked against the one before it.
        var pending: [String: UInt64] = [:]
        var versions: [UInt64] = []
        for append in appends {
            let current = try pending[append.streamId] ?? log.streamVersion(append.streamId)
            guard append.expectedVersion.accepts(current) else {
                throw EventLogError.wrongExpectedVersion(streamId: append.streamId, expected: append.expectedVersion, actual: current)
            }
            versions.append(current)
            pending[append.streamId] = current + UInt64(append.events.count)
        }

        var position = head
        var decided: [RecordedEvent] = []
        decided.reserveCapacity(newEvents.count)
        for (append, startVersion) in zip(appends, versions) {
            for (offset, event) in append.events.enumerated() {
                position += 1
                decided.append(RecordedEvent(
                    position: position, id: event.id, type: event.type, schemaVersion: event.schemaVersion, streamId: append.streamId,
                    streamVersion: startVersion + UInt64(offset) + 1,
                    recordedAtMicroseconds: event.recordedAt.map { Int64(($0.timeIntervalSince1970 * 1_000_000).rounded()) } ?? now,
                    actorUserId: event.actorUserId,
                    userIds: Array(Set(event.userIds + (event.actorUserId.map { [$0] } ?? []))).sorted(),
                    payload: event.payload
                ))
            }
        }
        return .write(decided)
    }

    /// A retry is the same facts again: an id already recorded for another event (another stream,
    /// type or payload) is a caller reusing an idempotency key for a different request.
    private static func expectSameEvents(_ appends: [StreamAppend], recordedAt positions: [UInt64], in log: some AppendLookups) throws {
        let offered = appends.flatMap { append in append.events.map { (append.streamId, $0) } }
        for ((streamId, event), position) in zip(offered, positions) {
            guard let stored = try log.event(at: position) else { continue }
            guard stored.streamId == streamId, stored.type == event.type, stored.schemaVersion == event.schemaVersion,
                  stored.payload == event.payload
            else { throw EventLogError.eventIdReused(eventId: event.id, position: position) }
        }
    }
}
