import Foundation
import Logging
import Metrics

/// The append-only event log: the only source of truth.
///
/// One writer (a group-commit thread), any number of concurrent readers. `append` returns only after
/// the LMDB commit holding its events is durable and they are indexed (`LogIndex`). Reads are
/// synchronous and short: a read transaction never spans an `await`.
public final class EventLog: Sendable {
    public struct Configuration: Sendable {
        public var directory: URL
        /// The map starts at this size and doubles whenever it is full.
        public var initialMapSize: Int
        /// Off, every append gets a commit of its own even when others are waiting: the baseline
        /// the append benchmark measures group commit against. Always on in the server.
        public var groupCommit: Bool
        /// Refuses every append with `EventLogError.readOnly`: a log that shows a past state.
        public var readOnly: Bool
        /// When set, the log is this shared one, and `directory` holds this process's copy of it.
        public var shared: (any SharedLog)?
        /// Runs before each batch of the shared log is copied here: what the copied events need
        /// first (the keys their personal fields were sealed under).
        public var beforeCopy: (@Sendable () async throws -> Void)?

        public init(
            directory: URL, initialMapSize: Int = 64 << 20, groupCommit: Bool = true, readOnly: Bool = false, shared: (any SharedLog)? = nil,
            beforeCopy: (@Sendable () async throws -> Void)? = nil
        ) {
            self.directory = directory
            self.initialMapSize = initialMapSize
            self.groupCommit = groupCommit
            self.readOnly = readOnly
            self.shared = shared
            self.beforeCopy = beforeCopy
        }
    }

    private let environment: LMDBEnvironment
    private let store: LogStore
    private let index: LogIndex
    private let head: PositionWatcher
    private let writer: GroupCommitWriter
    private let follower: SharedLogFollower?
    private let readOnly: Bool
    private let directory: URL
    /// Refuses every append: a log that shows a past state.
    public var isReadOnly: Bool { readOnly }
    private let storageFull = StorageFullLatch()
    private let appendTimer = Metrics.Timer(label: "engine_log_append_duration")
    private let appendedEvents = Counter(label: "engine_log_appended_events_total")

    public init(configuration: Configuration) throws {
        environment = try LMDBEnvironment(
            path: configuration.directory.path, initialMapSize: configuration.initialMapSize, maxDatabases: 8
        )
        do {
            let store = try LogStore(environment: environment)
            let head = try environment.read(store.lastPosition)
            index = try LogIndex.open(
                logDirectory: configuration.directory, initialMapSize: configuration.initialMapSize, log: environment, store: store, logHead: head
            )
            self.store = store
            self.head = PositionWatcher(position: head)
        } catch {
            environment.close()
            throw error
        }
        writer = GroupCommitWriter(
            environment: environment, store: store, index: index, head: head, storageFull: storageFull, grouping: configuration.groupCommit
        )
        readOnly = configuration.readOnly
        directory = configuration.directory
        follower = configuration.shared.map { [writer, head, environment, store, index] in
            SharedLogFollower(
                shared: $0, writer: writer, localHead: head, beforeCopy: configuration.beforeCopy,
                localEventId: { position in try environment.read { try store.event(at: position, $0) }?.id },
                localVersions: { streams, eventIds in
                    try index.environment.read { txn in
                        guard try eventIds.allSatisfy({ try index.position(ofEvent: $0, txn) == nil }) else { return nil }
                        return try Dictionary(uniqueKeysWithValues: streams.map { ($0, try index.streamVersion($0, txn)) })
                    }
                }
            )
        }
    }

    /// Unmaps the pages of the log and its index this process has read; see
    /// `LMDBEnvironment.releaseMappedPages`. For periodic upkeep, never needed for correctness.
    public func releaseMappedPages() {
        environment.releaseMappedPages()
        index.environment.releaseMappedPages()
    }

    /// Stops the writer after the appends already queued, then closes the environment.
    public func close() {
        follower?.close()
        writer.close()
        index.environment.close()
        environment.close()
    }

    // MARK: Writing

    /// Appends to several streams atomically: every expected version must hold, or nothing is written.
    public func append(_ appends: [StreamAppend]) async throws -> AppendResult {
        guard !readOnly else { throw EventLogError.readOnly }
        let started = ContinuousClock.now
        let result = if let follower { try await follower.append(appends) } else { try await writer.submit(appends) }
        appendTimer.record(duration: ContinuousClock.now - started)
        if !result.wasDuplicate { appendedEvents.increment(by: result.positions.count) }
        return result
    }

    public func append(to streamId: String, expectedVersion: ExpectedVersion, events: [NewEvent]) async throws -> AppendResult {
        try await append([StreamAppend(streamId: streamId, expectedVersion: expectedVersion, events: events)])
    }

    // MARK: Sharing

    /// True when the log is a shared one and this is this process's copy of it.
    public var isShared: Bool { follower != nil }

    /// Where the log is: the shared log's location, or the embedded log's directory.
    public var location: String { follower?.shared.location ?? directory.path }

    /// The shared log's server in use now; nil for the embedded log, or while none is.
    public var sharedLogServer: String? { follower?.shared.server }

    /// Returns once this process's copy holds every event the shared log held when called; at once
    /// for an embedded log. Throws when the shared log cannot be reached.
    public func catchUpWithSharedLog() async throws {
        try await follower?.catchUp()
    }

    /// The shared log's head as its server says now (`SharedLogFollower.currentHead`); nil for an
    /// embedded log. Throws `SharedLogUnreachable` when the server cannot say.
    public func currentSharedHead() async throws -> UInt64? {
        try await follower?.currentHead()
    }

    /// Runs `body` as the one process of the log that does `job` (a feed poller): at once for an
    /// embedded log; for a shared one, once this process leads the job (`SharedLog.leading`).
    public func asTheOneProcess(doing job: String, _ body: @escaping @Sendable () async throws -> Void) async throws {
        if let follower { try await follower.shared.leading(job, body) } else { try await body() }
    }

    /// The number of a new stream `<prefix><number>` from the shared log (`SharedLog.nextNumber`); nil
    /// for an embedded log, whose one process decides them alone.
    public func sharedStreamNumber(_ prefix: String, above floor: Int64) async throws -> Int64? {
        try await follower?.shared.nextNumber(prefix, above: floor)
    }

    /// The files every process of a shared log reads (`SharedLog.storeFile`); nil for an embedded
    /// log, whose files are in its own data directory only.
    public var sharedFiles: SharedFiles? { follower.map { SharedFiles(log: $0.shared) } }

    /// Attempts counted among every process of a shared log (`SharedLog.countAttempt`); nil for an
    /// embedded log, whose one process counts alone.
    public var sharedAttempts: SharedAttempts? { follower.map { SharedAttempts(log: $0.shared) } }

    /// The shared log's head as last heard; the embedded log's own head otherwise.
    public var sharedHeadPosition: UInt64 { follower?.sharedHeadPosition ?? head.position }

    /// Set while the shared log cannot be read: this copy, and every read model folded from it, is behind.
    public var sharedLogFailure: (message: String, since: Date)? { follower?.failure }

    // MARK: Reading

    /// The position of the last committed event; 0 for an empty log.
    public var headPosition: UInt64 { head.position }

    /// Returns once an event beyond `position` is committed, or when the task is cancelled.
    public func waitForEvents(after position: UInt64) async {
        await head.wait(beyond: position)
    }

    /// Returns once an event beyond `position` is committed, or `timeout` passes, or the task is cancelled.
    public func waitForEvents(after position: UInt64, timeout: Duration) async {
        _ = await head.wait(until: position + 1, timeout: timeout)
    }

    /// Re-reads the head from disk, for appends made by another process (an import while serving).
    public func refreshHead() throws {
        head.publish(try environment.read { try store.lastPosition($0) })
    }

    /// Events at positions ≥ `position`, in order, at most `limit`.
    public func read(from position: UInt64, limit: Int) throws -> [RecordedEvent] {
        try environment.read { txn in
            var result: [RecordedEvent] = []
            try txn.scan(store.events, from: RecordCodec.key(max(position, 1))) { key, value in
                result.append(try RecordCodec.decode(value, position: RecordCodec.uint64(fromKey: key)))
                return result.count < limit
            }
            return result
        }
    }

    public func event(at position: UInt64) throws -> RecordedEvent? {
        try environment.read { try store.event(at: position, $0) }
    }

    /// One stream's events from `version` (1 is the first), in order, at most `limit`.
    public func readStream(_ streamId: String, fromVersion version: UInt64 = 1, limit: Int = .max) throws -> [RecordedEvent] {
        try readIndexed { indexTxn, txn in
            try index.positions(ofStream: streamId, fromVersion: version, limit: limit, indexTxn).compactMap { try store.event(at: $0, txn) }
        }
    }

    /// Where the event with this id is recorded; nil when it is not.
    public func position(ofEvent id: UUID) throws -> UInt64? {
        try readIndexed { indexTxn, _ in try index.position(ofEvent: id, indexTxn) }
    }

    /// The version of the stream's last event; 0 when the stream does not exist.
    public func streamVersion(_ streamId: String) throws -> UInt64 {
        try readIndexed { indexTxn, _ in try index.streamVersion(streamId, indexTxn) }
    }

    /// Ids of the streams whose id starts with `prefix`, in byte order.
    public func streamIds(withPrefix prefix: String) throws -> [String] {
        try readIndexed { indexTxn, _ in try index.streamIds(withPrefix: prefix, indexTxn) }
    }

    /// Events that concern `userId` (as actor or as subject) at positions from `position` through
    /// `last`, at most `limit`.
    public func readUser(_ userId: Int64, from position: UInt64 = 1, through last: UInt64 = .max, limit: Int = .max) throws -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        try readIndexed { indexTxn, txn in
            try scanUser(userId, from: position, backward: false, indexTxn, txn) { event in
                guard event.position <= last else { return false }
                events.append(event)
                return events.count < limit
            }
        }
        return events
    }

    /// Events that concern `userId` at positions up to `last`, newest first, for as long as `body`
    /// returns true: a user's latest events without reading their whole history.
    public func readUserBackward(_ userId: Int64, through last: UInt64, _ body: (RecordedEvent) throws -> Bool) throws {
        try readIndexed { indexTxn, txn in try scanUser(userId, from: last, backward: true, indexTxn, txn, body) }
    }

    /// Reads the index, then the log: the index's snapshot is taken first, so every position it
    /// holds is in the log's. An index behind the published head (its commit failed after the log's
    /// was durable: `GroupCommitWriter.commit`) is caught up first, so no read misses an acknowledged
    /// event; when it cannot be, the read throws what stopped it.
    private func readIndexed<T>(_ body: (_ indexTxn: Transaction, _ txn: Transaction) throws -> T) throws -> T {
        let published = head.position
        var behind = false
        let answer = try index.environment.read { indexTxn -> T? in
            guard try index.indexedThrough(indexTxn) >= published else {
                behind = true
                return nil
            }
            return try environment.read { txn in try body(indexTxn, txn) }
        }
        if !behind, let answer { return answer }
        try environment.read { try index.catchUp(from: store, $0, through: store.lastPosition($0)) }
        return try index.environment.read { indexTxn in try environment.read { txn in try body(indexTxn, txn) } }
    }

    /// Walks the user index from `start` in either direction, handing `body` each event.
    private func scanUser(
        _ userId: Int64, from start: UInt64, backward: Bool, _ indexTxn: Transaction, _ txn: Transaction, _ body: (RecordedEvent) throws -> Bool
    ) throws {
        let prefix = RecordCodec.key(UInt64(bitPattern: userId))
        try indexTxn.scan(index.userEvents, from: RecordCodec.userKey(userId, position: start), backward: backward) { key, _ in
            guard key.starts(with: prefix) else { return false }
            guard let event = try store.event(at: RecordCodec.uint64(fromKey: key, at: 8), txn) else { return true }
            return try body(event)
        }
    }

    // MARK: Operations

    public var mapSize: Int { environment.mapSize }

    /// Set while appends fail because the filesystem under the log or its index is full.
    public var storageFailure: (error: StorageFullError, since: Date)? { storageFull.current }

    /// Writes a consistent, compacted copy of the log into `directory` while appends go on.
    /// Returns the copy's head, read from the copy (opened read-only, so nothing is written into the
    /// backup after the copy): another process appending meanwhile (the server, when an operator
    /// backs up from the command line) puts it past this process's `headPosition`.
    @discardableResult
    public func backup(to directory: URL) throws -> UInt64 {
        try environment.copy(to: directory.path)
        let copy = try LMDBEnvironment(path: directory.path, initialMapSize: 1 << 20, maxDatabases: 8, readOnlyCopy: true)
        defer { copy.close() }
        return try copy.read(LogStore.lastPosition(readOnly:))
    }
}
