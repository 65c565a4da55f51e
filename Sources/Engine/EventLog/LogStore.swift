import CLMDB
import Foundation

/// The log's own LMDB database, and the reads and writes made inside one of its transactions.
///
/// - `events`: position → record
///
/// Its indexes live apart (`LogIndex`). Logs written by earlier versions kept them here (`eventIds`,
/// `streams`, `userEvents`, and before that `streamHeads`): they are dropped when such a log opens
/// and the index is built from the events.
struct LogStore: Sendable {
    let events: LMDBEnvironment.Database

    init(environment: LMDBEnvironment) throws {
        events = try environment.openDatabase(named: "events")
        try environment.dropDatabases(named: ["streamHeads", "eventIds", "streams", "userEvents"])
    }

    func lastPosition(_ txn: Transaction) throws -> UInt64 {
        try txn.lastKey(events).map(RecordCodec.uint64(fromKey:)) ?? 0
    }

    func event(at position: UInt64, _ txn: Transaction) throws -> RecordedEvent? {
        try txn.get(events, key: RecordCodec.key(position)).map { try RecordCodec.decode($0, position: position) }
    }

    /// Validates the whole request first, so a rejected request writes nothing; then writes its
    /// events, and their index entries into `index`.
    func append(_ appends: [StreamAppend], in txn: Transaction, index: inout PendingIndex, after head: inout UInt64, now: Int64) throws -> AppendResult {
        let newEvents = appends.flatMap(\.events)
        guard !newEvents.isEmpty else { throw EventLogError.invalidAppend("no events") }
        guard Set(newEvents.map(\.id)).count == newEvents.count else { throw EventLogError.invalidAppend("an event id appears twice") }
        for append in appends {
            guard !append.streamId.isEmpty, append.streamId.utf8.count <= 400, !append.streamId.utf8.contains(0) else {
                throw EventLogError.invalidAppend("stream id must be 1–400 bytes without NUL")
            }
        }

        let known = try newEvents.map { try index.position(ofEvent: $0.id) }
        let recorded = known.compactMap { $0 }
        if recorded.count == newEvents.count {
            try expectSameEvents(appends, recordedAt: recorded, txn)
            return AppendResult(positions: recorded, wasDuplicate: true)
        }
        if !recorded.isEmpty {
            throw EventLogError.partialDuplicate(eventIds: zip(newEvents, known).filter { $0.1 != nil }.map(\.0.id))
        }

        // A stream may appear more than once: each expectation is checked against the one before it.
        var pending: [String: UInt64] = [:]
        var versions: [UInt64] = []
        for append in appends {
            let current = try pending[append.streamId] ?? index.streamVersion(append.streamId)
            guard append.expectedVersion.accepts(current) else {
                throw EventLogError.wrongExpectedVersion(streamId: append.streamId, expected: append.expectedVersion, actual: current)
            }
            versions.append(current)
            pending[append.streamId] = current + UInt64(append.events.count)
        }

        var positions: [UInt64] = []
        positions.reserveCapacity(newEvents.count)
        for (append, startVersion) in zip(appends, versions) {
            var version = startVersion
            for event in append.events {
                head += 1
                version += 1
                let position = RecordCodec.key(head)
                let users = Array(Set(event.userIds + (event.actorUserId.map { [$0] } ?? []))).sorted()
                let recordedAt = event.recordedAt.map { Int64(($0.timeIntervalSince1970 * 1_000_000).rounded()) } ?? now
                let record = RecordCodec.encode(event, streamId: append.streamId, streamVersion: version, recordedAt: recordedAt, userIds: users)
                try txn.put(events, key: position, value: record, flags: MDB_APPEND)
                index.add(LogIndex.Entry(eventId: event.id, streamId: append.streamId, version: version, position: head, userIds: users))
                positions.append(head)
            }
        }
        return AppendResult(positions: positions, wasDuplicate: false)
    }

    /// A retry is the same facts again: an id already recorded for another event (another stream,
    /// type or payload) is a caller reusing an idempotency key for a different request.
    private func expectSameEvents(_ appends: [StreamAppend], recordedAt positions: [UInt64], _ txn: Transaction) throws {
        let offered = appends.flatMap { append in append.events.map { (append.streamId, $0) } }
        for ((streamId, event), position) in zip(offered, positions) {
            guard let stored = try self.event(at: position, txn) else { continue }
            guard stored.streamId == streamId, stored.type == event.type, stored.schemaVersion == event.schemaVersion,
                  stored.payload == event.payload
            else { throw EventLogError.eventIdReused(eventId: event.id, position: position) }
        }
    }
}
