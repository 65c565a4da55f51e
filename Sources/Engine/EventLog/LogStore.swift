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

    private static let eventsName = "events"

    init(environment: LMDBEnvironment) throws {
        events = try environment.openDatabase(named: Self.eventsName)
        try environment.dropDatabases(named: ["streamHeads", "eventIds", "streams", "userEvents"])
    }

    func lastPosition(_ txn: Transaction) throws -> UInt64 {
        try txn.lastKey(events).map(RecordCodec.uint64(fromKey:)) ?? 0
    }

    /// The last position of a log opened read-only (`LMDBEnvironment`'s `readOnlyCopy`), without
    /// the write a `LogStore` makes when it opens.
    static func lastPosition(readOnly txn: Transaction) throws -> UInt64 {
        try txn.existingDatabase(named: eventsName).flatMap(txn.lastKey).map(RecordCodec.uint64(fromKey:)) ?? 0
    }

    func event(at position: UInt64, _ txn: Transaction) throws -> RecordedEvent? {
        try txn.get(events, key: RecordCodec.key(position)).map { try RecordCodec.decode($0, position: position) }
    }

    /// Decides the request by the append rules (`AppendPlanner`), then writes what they decided,
    /// and its index entries into `index`.
    func append(_ appends: [StreamAppend], in txn: Transaction, index: inout PendingIndex, after head: inout UInt64, now: Int64) throws -> AppendResult {
        let decision = try AppendPlanner.decide(appends, after: head, now: now, in: LookupsInCommit(store: self, index: index, txn: txn))
        if case .write(let events) = decision { try write(events, in: txn, index: &index, after: &head) }
        return decision.result
    }

    /// Writes events whose positions are already decided, each right after the head: the appends
    /// this log decided, or a shared log's events copied in its order.
    func write(_ events: [RecordedEvent], in txn: Transaction, index: inout PendingIndex, after head: inout UInt64) throws {
        for event in events {
            guard event.position == head + 1 else {
                throw EventLogError.invalidAppend("position \(event.position) does not follow the head \(head)")
            }
            try txn.put(self.events, key: RecordCodec.key(event.position), value: RecordCodec.encode(event), flags: MDB_APPEND)
            index.add(LogIndex.Entry(eventId: event.id, streamId: event.streamId, version: event.streamVersion, position: event.position, userIds: event.userIds))
            head = event.position
        }
    }
}

private struct LookupsInCommit: AppendLookups {
    let store: LogStore
    let index: PendingIndex
    let txn: Transaction

    func position(ofEvent id: UUID) throws -> UInt64? { try index.position(ofEvent: id) }
    func streamVersion(_ streamId: String) throws -> UInt64 { try index.streamVersion(streamId) }
    func event(at position: UInt64) throws -> RecordedEvent? { try store.event(at: position, txn) }
}
