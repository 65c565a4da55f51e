import EventLog
import EventSourcing
import Foundation
import GRDB
import Logging
import Metrics
import ServiceLifecycle
import NIOConcurrencyHelpers
import Synchronization

/// Tails the log and folds each batch of events into every projection, in one SQLite transaction
/// that also moves their checkpoints. Sleeps until the log moves; stops on graceful shutdown.
///
/// A projection that cannot apply an event is recorded as failed at that position and left behind;
/// the others go on. A full disk is not the event's fault: the batch is rolled back, nothing is
/// recorded as failed, and the runner retries every second until the read models take writes again.
public final class ProjectionRunner<Catalog: EventCatalog>: Service, Sendable {
    public typealias Event = Catalog.Event

    public struct Status: Sendable, Equatable {
        public var name: String
        public var version: Int
        public var position: UInt64
        public var failedPosition: UInt64?
        public var failure: String?

        /// What it says when an event it could not apply stopped it, with where; nil while it folds.
        public var stopped: String? {
            Checkpoint(name: name, version: version, position: Int64(clamping: position), failedPosition: failedPosition.map { Int64(clamping: $0) }, failure: failure).stopped
        }
    }

    let log: EventLog
    /// Opens the personal fields of what is folded; an erased user's read as absent.
    let personalData: any PersonalDataCipher
    let database: ReadDatabase
    /// Folded in this order; their schemas are the read database's.
    public let projections: [any Projection<Event>]
    let batchSize: Int
    let logger: Logger
    /// Held for each batch, and by a rebuild while it swaps in its new generation.
    let batchLock = NIOLock()
    /// The position every healthy projection has reached: what read-your-writes waits for.
    private let applied: PositionWatcher
    private let changes = ScopeRevisions()
    /// The live read models' metrics; nil for a rebuild's runner, whose positions are its own.
    private let metrics: RunnerMetrics?
    private let storageFull: StorageFullLatch
    private let replayCoordinator = Mutex<ReplayCoordinator?>(nil)
    /// A bulk catch-up stopped before it built the indexes it deferred (`catchUp(until:)`).
    let indexesLeftUnbuilt = Atomic(false)
    /// A batch folded an erasure since the WAL was last truncated (`truncateWALAfterErasures`). Set
    /// at start: a process killed between an erasure's commit and the truncation left the WAL with
    /// the erased rows' pages, and nothing records that it did.
    let erasuresFolded = Atomic(true)
    let lastFailedWALTruncation = Mutex<ContinuousClock.Instant?>(nil)
    /// How far `applyErasuresWhileEveryProjectionIsStopped` has read the log.
    let erasuresScannedThrough = Mutex<UInt64>(0)
    private let passingFailures = Mutex<(position: UInt64, count: Int)>((0, 0))
    static var passingAttempts: Int { 3 }
    private static var retryDelay: Duration { .seconds(1) }
    private static var idleCheckpointInterval: Duration { .seconds(1) }

    public init(
        log: EventLog, personalData: any PersonalDataCipher, database: ReadDatabase, projections: [any Projection<Event>],
        batchSize: Int = 2000, reportsMetrics: Bool = true, logger: Logger
    ) throws {
        guard projections.map(\.name) == database.projections.map(\.name) else {
            throw RebuildError.projectionsDiffer(runner: projections.map(\.name), database: database.projections.map(\.name))
        }
        self.log = log
        self.personalData = personalData
        self.database = database
        self.projections = projections
        metrics = reportsMetrics ? RunnerMetrics(projections: projections.map(\.name)) : nil
        self.batchSize = batchSize
        self.logger = logger
        storageFull = StorageFullLatch(logger: logger)
        let checkpoints = try database.checkpoints().filter { $0.failedPosition == nil }
        applied = PositionWatcher(position: UInt64(checkpoints.map(\.position).min() ?? 0))
    }

    public var appliedPosition: UInt64 { applied.position }

    /// The operator's rebuilds of these projections while serving, one at a time in the background.
    public var replays: ReplayCoordinator {
        replayCoordinator.withLock { made in
            if let made { return made }
            let coordinator = ReplayCoordinator(runner: self)
            made = coordinator
            return coordinator
        }
    }

    /// Counts what has changed the read models since this runner started: a batch folded, a
    /// projection stopped, a rebuild swapped in; counted after the change is visible. Two reads
    /// that see the same revision saw the same read models, so an answer read at one can be served
    /// again while it holds.
    public var revision: UInt64 { changes.current }

    /// The latest revision at which a change may have touched any of `scopes`: an answer read from
    /// only those scopes at this revision or later still holds.
    public func lastTouched(_ scopes: ReadScopeSet) -> UInt64 {
        changes.lastTouched(scopes)
    }

    /// Set while batches fail because the filesystem under the read models is full.
    public var storageFailure: (error: StorageFullError, since: Date)? { storageFull.current }

    /// Waits until every healthy projection has applied `position`; false when `timeout` passes first.
    public func waitUntilApplied(_ position: UInt64, timeout: Duration) async -> Bool {
        await applied.wait(until: position, timeout: timeout)
    }

    public func status() throws -> [Status] {
        try database.checkpoints().map {
            Status(name: $0.name, version: $0.version, position: UInt64($0.position), failedPosition: $0.failedPosition.map(UInt64.init), failure: $0.failure)
        }
    }

    public func run() async throws {
        logger.info("projection runner started", metadata: ["position": "\(appliedPosition)", "log.head": "\(log.headPosition)"])
        // The first idle moment also copies what an earlier process left in the WAL.
        var (walToCopy, walCopied) = (true, ContinuousClock.now - Self.idleCheckpointInterval)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let folded: Int
            // What there was to fold: with a projection failed, the position published may stay below it.
            let head = log.headPosition
            do {
                folded = try await BlockingWork.run { try self.catchUp() }
            } catch let full as StorageFullError {
                storageFull.record(full)
                await cancelWhenGracefulShutdown { try? await Task.sleep(for: Self.retryDelay) }
                continue
            } catch let again as FoldToTryAgain {
                logger.warning("could not fold the next batch for now; trying again", metadata: ["error": "\(again.cause)"])
                await cancelWhenGracefulShutdown { try? await Task.sleep(for: Self.retryDelay) }
                continue
            }
            if folded > 0 {
                storageFull.recordSuccess()
                walToCopy = true
            }
            if erasuresFolded.load(ordering: .acquiring) { try await BlockingWork.run { self.truncateWALAfterErasures() } }
            if folded == 0 {
                if walToCopy, ContinuousClock.now - walCopied >= Self.idleCheckpointInterval {
                    try await BlockingWork.run { self.checkpointWhileIdle() }
                    (walToCopy, walCopied) = (false, .now)
                }
                let seen = max(appliedPosition, head)
                // Woken by this process's appends; the timeout also notices another process's (an import).
                await cancelWhenGracefulShutdown {
                    if self.log.headPosition <= seen { await self.log.waitForEvents(after: seen, timeout: .seconds(1)) }
                }
                try log.refreshHead()
            }
        }
        logger.info("projection runner stopped", metadata: ["position": "\(appliedPosition)"])
    }

    /// Copies the read models' WAL into their file, as SQLite's own checkpoint would at the commit
    /// that fills it to `ReadDatabase.walCheckpointPages`: done when the runner has caught up, at most
    /// once an `idleCheckpointInterval` (a load that leaves it idle a hundred times a second is not
    /// made to sync a hundred times), so a feed's next event is rarely folded behind one. A failure
    /// only leaves the copying to that commit.
    public func checkpointWhileIdle() {
        do { try database.checkpointPassively() } catch {
            logger.warning("could not checkpoint the read models' WAL while idle", metadata: ["error": "\(error)"])
        }
    }

    /// `releasingWhatItRead`: a long catch-up reads the log once, so the log's pages it has mapped
    /// are released after each batch (`EventLog.releaseMappedPages`) instead of all staying resident
    /// until the periodic release, which does not run before serving.
    func catchUpInBatches(until target: UInt64 = .max, releasingWhatItRead: Bool = false) throws -> Int {
        var total = 0
        var prefetch: Prefetch<Catalog>?
        defer { _ = try? prefetch?.events.value() }
        while true {
            let count = try batchLock.withLock { try applyNextBatch(until: target, prefetch: &prefetch) }
            total += count
            if releasingWhatItRead { log.releaseMappedPages() }
            // Caught up: reading the checkpoints again would only find nothing to fold.
            if count == 0 || appliedPosition >= min(target, log.headPosition) { return total }
        }
    }

    /// Folds the next batch. When the batch is full, the one after it is read and decoded on
    /// another thread meanwhile (`prefetch`), so a long catch-up decodes and folds at the same time.
    /// The checkpoints are read in the batch's own transaction, not in one of their own: every batch
    /// reads them all.
    private func applyNextBatch(until target: UInt64, prefetch: inout Prefetch<Catalog>?) throws -> Int {
        let started = ContinuousClock.now
        var active: [(any Projection<Event>, Int64)] = []
        var folded: (count: Int, touched: ReadScopes, checkpoints: [Checkpoint])?
        var scannedWhileStopped: (count: Int, through: UInt64, erasures: [Recorded<Event>])?
        do {
            try writeReadModels { db in
                var checkpoints = Dictionary(uniqueKeysWithValues: try Checkpoint.all(db, of: database.projectionNames).map { ($0.name, $0) })
                // Each healthy projection with the position it has applied.
                active = projections.compactMap { projection in
                    checkpoints[projection.name].flatMap { $0.failedPosition == nil ? (projection, $0.position) : nil }
                }
                guard let start = active.map(\.1).min() else {
                    scannedWhileStopped = try applyErasuresWhileEveryProjectionIsStopped(until: target, Array(checkpoints.values), db)
                    return
                }
                let from = UInt64(start) + 1
                guard from <= target else { return }
                let limit = min(batchSize, Int(clamping: target - from + 1))
                let ready = prefetch
                prefetch = nil
                let events = try ready?.batch(from: from, limit: limit) ?? Self.readDecoded(log, personalData, from: from, limit: limit)
                guard let last = events.last?.position else { return }
                if events.count == limit, last < target {
                    prefetch = Prefetch(log: log, personalData: personalData, from: last + 1, limit: min(batchSize, Int(clamping: target - last)))
                }
                // Projections own disjoint tables, so folding the batch one projection at a time
                // leaves what folding it one event at a time would.
                for (projection, applied) in active {
                    let unapplied = events[(events.firstIndex { $0.position > UInt64(applied) } ?? events.endIndex)...]
                    guard !unapplied.isEmpty else { continue }
                    do { try projection.apply(unapplied, db) } catch let failure as FoldFailure {
                        if let full = storageFullError(failure.error) { throw full }
                        throw ProjectionFailure(projection: projection.name, position: failure.position, error: failure.error)
                    } catch {
                        if let full = storageFullError(error) { throw full }
                        throw ProjectionFailure(projection: projection.name, position: unapplied[unapplied.startIndex].position, error: error)
                    }
                }
                applyErasures(in: events, toStopped: Array(checkpoints.values), db)
                for (projection, applied) in active where applied < Int64(last) {
                    try Checkpoint.move(projection.name, to: Int64(last), db)
                    checkpoints[projection.name]?.position = Int64(last)
                }
                noteErasures(in: events)
                folded = (events.count, .of(events, in: Catalog.self), Array(checkpoints.values))
            }
        } catch let failure as ProjectionFailure {
            _ = try? prefetch?.events.value()
            prefetch = nil
            if triesAgain(failure) { throw FoldToTryAgain(cause: failure.error) }
            try recordFailure(failure, among: active)
            return try applyNextBatch(until: target, prefetch: &prefetch)
        }
        if let scanned = scannedWhileStopped {
            erasuresScannedThrough.withLock { $0 = scanned.through }
            // What was remembered of the erased users' rows is not served again, and the erasure's
            // wait for the read models ends.
            if !scanned.erasures.isEmpty { changes.advance(touching: .of(scanned.erasures, in: Catalog.self)) }
            applied.publish(scanned.through)
            return scanned.count
        }
        guard let folded else { return 0 }
        metrics?.batches.record(duration: ContinuousClock.now - started)
        metrics?.appliedEvents.increment(by: folded.count)
        publishProgress(folded.checkpoints, touching: folded.touched)
        return folded.count
    }

    static func readDecoded(_ log: EventLog, _ personalData: any PersonalDataCipher, from: UInt64, limit: Int) throws -> [Recorded<Event>] {
        try log.read(from: from, limit: limit).map { record in
            do { return try Catalog.decode(record, personalData: personalData) } catch { throw ProjectionFailure(projection: nil, position: record.position, error: error) }
        }
    }

    /// Whether `failure` is rolled back to be tried again rather than recorded: SQLite's answers that
    /// may say nothing about the event (busy, memory or I/O failing for now), from the read models or
    /// the key store, recorded, stopped the projection until a replay. At most `passingAttempts` in
    /// a row at one position, so one that repeats (a bad sector) is recorded as before.
    private func triesAgain(_ failure: ProjectionFailure) -> Bool {
        guard let error = failure.error as? DatabaseError,
              [.SQLITE_BUSY, .SQLITE_IOERR, .SQLITE_NOMEM, .SQLITE_PROTOCOL].contains(error.resultCode) else { return false }
        return passingFailures.withLock { last in
            last = (failure.position, last.position == failure.position ? last.count + 1 : 1)
            return last.count <= Self.passingAttempts
        }
    }

    /// An event no projection could read (`projection` nil) stops those that had not applied it yet;
    /// the others had folded past it, before a new projection or version started again from 0.
    private func recordFailure(_ failure: ProjectionFailure, among active: [(any Projection<Event>, Int64)]) throws {
        let names = failure.projection.map { [$0] } ?? active.filter { $0.1 < Int64(failure.position) }.map(\.0.name)
        logger.error("projection cannot apply event; it stops here, the others go on", metadata: [
            "projections": "\(names)", "position": "\(failure.position)", "error": "\(failure.error)",
        ])
        try writeReadModels { db in
            for name in names {
                try db.execute(
                    sql: "UPDATE projectionCheckpoint SET failedPosition = ?, failure = ? WHERE name = ?",
                    arguments: [failure.position, String(describing: failure.error), name]
                )
            }
        }
        publishProgress(try database.checkpoints())
    }

    /// One write transaction on the read models; a full disk throws `StorageFullError`.
    private func writeReadModels(_ body: (Database) throws -> Void) throws {
        try mappingFullDisk { try database.pool.write(body) }
    }

    /// Runs `body` on the read models, SQLite's disk-full errors thrown as `StorageFullError`.
    func mappingFullDisk<T>(_ body: () throws -> T) throws -> T {
        try StorageFullError.mappingSQLite(store: .readModels, path: database.path, body)
    }

    private func storageFullError(_ error: any Error) -> StorageFullError? {
        StorageFullError.sqlite(error, store: .readModels, path: database.path)
    }

    /// Gauges and the read-your-writes position, from checkpoints as just committed.
    func publishProgress(_ checkpoints: [Checkpoint], touching touched: ReadScopes = .everything) {
        let head = log.headPosition
        if let metrics {
            for checkpoint in checkpoints {
                let gauges = metrics.progress[checkpoint.name] ?? ProgressGauges(projection: checkpoint.name)
                gauges.position.record(checkpoint.position)
                gauges.lag.record(max(0, Int64(head) - checkpoint.position))
            }
        }
        let healthy = checkpoints.filter { $0.failedPosition == nil }.map(\.position)
        changes.advance(touching: touched)
        applied.publish(UInt64(healthy.min() ?? Int64(head)))
    }
}

/// The batch from `from`, read and decoded in the background.
private struct Prefetch<Catalog: EventCatalog> {
    let from: UInt64
    let limit: Int
    let events: Background<[Recorded<Catalog.Event>]>

    init(log: EventLog, personalData: any PersonalDataCipher, from: UInt64, limit: Int) {
        self.from = from
        self.limit = limit
        events = Background { try ProjectionRunner<Catalog>.readDecoded(log, personalData, from: from, limit: limit) }
    }

    /// The prefetched events if they are the batch wanted, else nil; waits for the read either way,
    /// so that nothing is still reading the log once the runner returns.
    func batch(from wanted: UInt64, limit wantedLimit: Int) throws -> [Recorded<Catalog.Event>]? {
        guard from == wanted, limit == wantedLimit else {
            _ = try? events.value()
            return nil
        }
        return try events.value()
    }
}

/// A batch rolled back on an error that may pass (`triesAgain`).
struct FoldToTryAgain: Error {
    var cause: any Error
}

private struct RunnerMetrics: Sendable {
    let appliedEvents = Counter(label: "engine_projection_applied_events_total")
    let batches = Metrics.Timer(label: "engine_projection_batch_duration")
    /// Made once: looking a gauge up by its label and dimensions on every batch cost a tenth of a
    /// small batch's fold (BENCHMARKS.md).
    let progress: [String: ProgressGauges]

    init(projections: [String]) {
        progress = Dictionary(uniqueKeysWithValues: projections.map { ($0, ProgressGauges(projection: $0)) })
    }
}

/// `engine_projection_position` and `engine_projection_lag_events` of one projection.
private struct ProgressGauges: Sendable {
    let position: Gauge
    let lag: Gauge

    init(projection: String) {
        position = Gauge(label: "engine_projection_position", dimensions: [("projection", projection)])
        lag = Gauge(label: "engine_projection_lag_events", dimensions: [("projection", projection)])
    }
}

struct ProjectionFailure: Error {
    /// nil when the event could not even be decoded: no projection can apply it.
    var projection: String?
    var position: UInt64
    var error: any Error
}
