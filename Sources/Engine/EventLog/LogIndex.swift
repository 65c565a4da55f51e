import CLMDB
import Foundation

/// The log's indexes, derived from its events and kept in an LMDB environment of their own
/// (`<log>/index/`) whose commits are not synced to disk:
///
/// - `eventIds`: event id → position (idempotent retries)
/// - `streams`: stream id ‖ 0 ‖ stream version → position; a stream's last key is its version
/// - `userEvents`: user id ‖ position → (nothing): every event that concerns a user
/// - `meta`: `indexedThrough` → the position of the last event indexed; every event up to it is
///
/// Why apart: each event puts keys at scattered places in `streams` and `userEvents`, and a durable
/// commit waits for every page it copied, so inside the log's own commit the indexes cost several
/// times what the events do (BENCHMARKS.md, durable appends). The events alone are the truth. The
/// writer indexes each commit right after it is durable and before acknowledging its appends, and
/// first catches the index up with the log whenever it is behind: after a process died between the
/// two commits, or when another process appended. A machine crash can lose or tear commits that were
/// never synced, so an index last written during an earlier boot is deleted and rebuilt.
struct LogIndex: Sendable {
    struct Entry {
        let eventId: UUID
        let streamId: String
        let version: UInt64
        let position: UInt64
        let userIds: [Int64]
    }

    let environment: LMDBEnvironment
    let eventIds: LMDBEnvironment.Database
    let streams: LMDBEnvironment.Database
    let userEvents: LMDBEnvironment.Database
    private let meta: LMDBEnvironment.Database
    private static let indexedThroughKey = Array("indexedThrough".utf8)
    private static let catchUpCommit = 10_000

    /// Opens the index of the log in `logDirectory` (its events in `store`, last position `logHead`),
    /// starting a new one when the one there may be torn (written during another boot) or is ahead
    /// of the log, and catches it up with the log.
    static func open(logDirectory: URL, initialMapSize: Int, log: LMDBEnvironment, store: LogStore, logHead: UInt64) throws -> LogIndex {
        let directory = logDirectory.appendingPathComponent("index")
        let bootFile = directory.appendingPathComponent("boot-id")
        let files = FileManager.default
        let index = try FileLock.holding(logDirectory.appendingPathComponent("index.lock")) {
            let boot = Self.currentBootId()
            let recorded = files.fileExists(atPath: bootFile.path) ? try String(contentsOf: bootFile, encoding: .utf8) : nil
            if boot == nil || recorded != boot, files.fileExists(atPath: directory.path) { try files.removeItem(at: directory) }
            var index = try LogIndex(directory: directory, initialMapSize: initialMapSize)
            // Ahead of the head read before: another process (a server beside this command) may have
            // appended and indexed since. Only an index ahead of the log as it is now is rebuilt.
            let indexed = try index.environment.read(index.indexedThrough)
            if indexed > logHead, try indexed > log.read(store.lastPosition) {
                index.environment.close()
                try files.removeItem(at: directory)
                index = try LogIndex(directory: directory, initialMapSize: initialMapSize)
            }
            // Not synced: if this file is lost, so is the certainty about the index, and it is rebuilt.
            if let boot, recorded != boot { try Data(boot.utf8).write(to: bootFile) }
            return index
        }
        do {
            try log.read { try index.catchUp(from: store, $0, through: logHead) }
        } catch {
            index.environment.close()
            throw error
        }
        return index
    }

    private init(directory: URL, initialMapSize: Int) throws {
        environment = try LMDBEnvironment(
            path: directory.path, initialMapSize: initialMapSize, maxDatabases: 8, durable: false, store: .logIndex
        )
        do {
            eventIds = try environment.openDatabase(named: "eventIds")
            streams = try environment.openDatabase(named: "streams")
            userEvents = try environment.openDatabase(named: "userEvents")
            meta = try environment.openDatabase(named: "meta")
        } catch {
            environment.close()
            throw error
        }
    }

    /// The kernel's id for this boot; nil where there is none to read.
    private static func currentBootId() -> String? {
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Writing

    /// Indexes the log's events after `indexedThrough` up to `head`, read through `logTxn`.
    func catchUp(from store: LogStore, _ logTxn: Transaction, through head: UInt64) throws {
        var indexed = try environment.read(indexedThrough)
        while indexed < head {
            var entries: [Entry] = []
            try logTxn.scan(store.events, from: RecordCodec.key(indexed + 1)) { key, value in
                let position = RecordCodec.uint64(fromKey: key)
                guard position <= head else { return false }
                let event = try RecordCodec.decode(value, position: position)
                entries.append(Entry(eventId: event.id, streamId: event.streamId, version: event.streamVersion, position: position, userIds: event.userIds))
                return entries.count < Self.catchUpCommit
            }
            guard let last = entries.last?.position else { return }
            try add(entries, through: last)
            indexed = last
        }
    }

    /// Adds `entries`, which index every event after the current `indexedThrough` up to `position`.
    /// Does nothing when another writer has indexed that far already.
    func add(_ entries: [Entry], through position: UInt64) throws {
        try environment.write { txn in
            guard try indexedThrough(txn) < position else { return }
            for entry in entries {
                let at = RecordCodec.key(entry.position)
                try txn.put(eventIds, key: RecordCodec.uuidKey(entry.eventId), value: at)
                try txn.put(streams, key: RecordCodec.streamKey(entry.streamId, version: entry.version), value: at)
                for user in entry.userIds { try txn.put(userEvents, key: RecordCodec.userKey(user, position: entry.position), value: []) }
            }
            try txn.put(meta, key: Self.indexedThroughKey, value: RecordCodec.key(position))
        }
    }

    // MARK: Reading

    func indexedThrough(_ txn: Transaction) throws -> UInt64 {
        try txn.get(meta, key: Self.indexedThroughKey).map { RecordCodec.uint64(fromKey: $0) } ?? 0
    }

    func position(ofEvent id: UUID, _ txn: Transaction) throws -> UInt64? {
        try txn.get(eventIds, key: RecordCodec.uuidKey(id)).map { RecordCodec.uint64(fromKey: $0) }
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

    /// Positions of one stream's events from `version` (1 is the first), in order, at most `limit`.
    func positions(ofStream streamId: String, fromVersion version: UInt64, limit: Int, _ txn: Transaction) throws -> [UInt64] {
        let prefix = Array(streamId.utf8) + [0]
        var positions: [UInt64] = []
        try txn.scan(streams, from: RecordCodec.streamKey(streamId, version: version)) { key, value in
            guard key.count == prefix.count + 8, key.starts(with: prefix) else { return false }
            positions.append(RecordCodec.uint64(fromKey: value))
            return positions.count < limit
        }
        return positions
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
}

/// The index as one commit of the log sees it: what is indexed, plus what the requests before in
/// the same commit append.
struct PendingIndex {
    let index: LogIndex
    let txn: Transaction
    private(set) var entries: [LogIndex.Entry] = []
    private var positions: [UUID: UInt64] = [:]
    private var versions: [String: UInt64] = [:]

    init(index: LogIndex, txn: Transaction) {
        self.index = index
        self.txn = txn
    }

    func position(ofEvent id: UUID) throws -> UInt64? {
        try positions[id] ?? index.position(ofEvent: id, txn)
    }

    func streamVersion(_ streamId: String) throws -> UInt64 {
        try versions[streamId] ?? index.streamVersion(streamId, txn)
    }

    mutating func add(_ entry: LogIndex.Entry) {
        entries.append(entry)
        positions[entry.eventId] = entry.position
        versions[entry.streamId] = entry.version
    }
}

/// An exclusive `flock` on a file, so that two processes opening the same log do not both decide
/// to replace its index.
private enum FileLock {
    static func holding<T>(_ file: URL, _ body: () throws -> T) throws -> T {
        let descriptor = Glibc.open(file.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o640)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { Glibc.close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
