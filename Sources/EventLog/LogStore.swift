import CLMDB
import Foundation

/// The log's LMDB databases and the reads and writes made inside one transaction.
///
/// - `events`: position → record
/// - `eventIds`: event id → position (idempotent retries)
/// - `streams`: stream id ‖ 0 ‖ stream version → position; a stream's last key is its version
/// - `userEvents`: user id ‖ position → (nothing): every event that concerns a user
///
/// Logs written before 2026-11-23 also kept `streamHeads` (stream id → last version). It is dropped
/// when such a log opens: its versions are the last keys of `streams`, and one fewer index written
/// at scattered keys makes each durable commit cheaper (BENCHMARKS.md, durable appends).
struct LogStore: Sendable {
    let events: LMDBEnvironment.Database
    let eventIds: LMDBEnvironment.Database
    let streams: LMDBEnvironment.Database
    let userEvents: LMDBEnvironment.Database

    init(environment: LMDBEnvironment) throws {
        events = try environment.openDatabase(named: "events")
        eventIds = try environment.openDatabase(named: "eventIds")
        streams = try environment.openDatabase(named: "streams")
        userEvents = try environment.openDatabase(named: "userEvents")
        try environment.dropDatabase(named: "streamHeads")
    }

    func lastPosition(_ txn: Transaction) throws -> UInt64 {
        try txn.lastKey(events).map(RecordCodec.uint64(fromKey:)) ?? 0
    }

    func streamVersion(_ streamId: String, _ txn: Transaction) throws -> UInt64 {
        let prefix = Array(streamId.utf8) + [0]
        var version: UInt64 = 0
        try txn.scan(streams, from: RecordCodec.streamKey(streamId, version: .max), backward: true) { key, _ in
            if key.count == prefix.count + 8, key.starts(with: prefix) { version = RecordCodec.uint64(fromKey: key, at: prefix.count) }
            return false
        }
        return version
    }

    /// Ids of the streams whose id starts with `prefix`, in byte order.
    func streamIds(withPrefix prefix: String, _ txn: Transaction) throws -> [String] {
        let prefixBytes = Array(prefix.utf8)
        var ids: [String] = []
        var last: [UInt8] = []
        try txn.scan(streams, from: prefixBytes) { key, _ in
            guard key.starts(with: prefixBytes) else { return false }
            let id = Array(key.prefix(key.count - 9))
            if id != last {
                ids.append(String(decoding: id, as: UTF8.self))
                last = id
            }
            return true
        }
        return ids
    }

    func event(at position: UInt64, _ txn: Transaction) throws -> RecordedEvent? {
        try txn.get(events, key: RecordCodec.key(position)).map { try RecordCodec.decode($0, position: position) }
    }

    /// Validates the whole request first, so a rejected request writes nothing; then writes it.
    func append(_ appends: [StreamAppend], in txn: Transaction, after head: inout UInt64, now: Int64) throws -> AppendResult {
        let newEvents = appends.flatMap(\.events)
        guard !newEvents.isEmpty else { throw EventLogError.invalidAppend("no events") }
        guard Set(newEvents.map(\.id)).count == newEvents.count else { throw EventLogError.invalidAppend("an event id appears twice") }
        for append in appends {
            guard !append.streamId.isEmpty, append.streamId.utf8.count <= 400, !append.streamId.utf8.contains(0) else {
                throw EventLogError.invalidAppend("stream id must be 1–400 bytes without NUL")
            }
        }

        let known = try newEvents.map { event in
            try txn.get(eventIds, key: RecordCodec.uuidKey(event.id)).map { RecordCodec.uint64(fromKey: $0) }
        }
        let recorded = known.compactMap { $0 }
        if recorded.count == newEvents.count { return AppendResult(positions: recorded, wasDuplicate: true) }
        if !recorded.isEmpty {
            throw EventLogError.partialDuplicate(eventIds: zip(newEvents, known).filter { $0.1 != nil }.map(\.0.id))
        }

        // A stream may appear more than once: each expectation is checked against the one before it.
        var pending: [String: UInt64] = [:]
        var versions: [UInt64] = []
        for append in appends {
            let current = try pending[append.streamId] ?? streamVersion(append.streamId, txn)
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
                try txn.put(eventIds, key: RecordCodec.uuidKey(event.id), value: position)
                try txn.put(streams, key: RecordCodec.streamKey(append.streamId, version: version), value: position)
                for user in users { try txn.put(userEvents, key: RecordCodec.userKey(user, position: head), value: []) }
                positions.append(head)
            }
        }
        return AppendResult(positions: positions, wasDuplicate: false)
    }
}
