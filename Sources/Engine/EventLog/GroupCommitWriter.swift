import Foundation
import Metrics
import Synchronization

/// The log's single writer: a thread of its own that gathers every append waiting at the moment it
/// becomes free into one LMDB write transaction and one durable commit, then acknowledges each caller.
/// One caller alone pays one commit; many concurrent callers share one.
final class GroupCommitWriter: @unchecked Sendable {
    private struct Request {
        enum Work {
            /// Decided here, by the append rules.
            case append([StreamAppend])
            /// Decided by a shared log: copied in its order (those already here are skipped, once
            /// found to be the same events: else `EventLogError.historyParted`).
            case copy([RecordedEvent])
        }

        let work: Work
        /// nil for a copy nobody waits for (`enqueueCopy`).
        var continuation: CheckedContinuation<AppendResult, any Error>?
        /// Called once the copy is written or dropped (`enqueueCopy`), with how it went.
        var processed: (@Sendable (Result<AppendResult, any Error>) -> Void)?
    }

    private let condition = NSCondition()
    private var queue: [Request] = []
    private var isClosed = false
    private var isFinished = false
    /// Appends in the last commit: that many callers are coming back with their next append.
    private var lastBatchSize = 0
    private let environment: LMDBEnvironment
    private let head: PositionWatcher
    private let store: LogStore
    private let index: LogIndex
    private let storageFull: StorageFullLatch
    private let commitTimer = Metrics.Timer(label: "engine_log_commit_duration")
    private let batchSize = Recorder(label: "engine_log_commit_batch_appends")
    private let indexFailures = Counter(label: "engine_log_index_failures_total")
    private let grouping: Bool
    /// The head when the pages were last released (`releaseAfterLongWrites`).
    private var releasedAt: UInt64 = 0
    /// Set while a release runs on `releasing`, off the commit path.
    private let releaseUnderWay = Atomic<Bool>(false)
    private let releasing = DispatchQueue(label: "event-log-release", qos: .utility)
    /// Events written between two releases of the mapped pages.
    private static let releaseEvery: UInt64 = 20_000
    private static let arrivalGap: TimeInterval = 0.000_05
    private static let longestWait: TimeInterval = 0.000_6

    init(
        environment: LMDBEnvironment, store: LogStore, index: LogIndex, head: PositionWatcher, storageFull: StorageFullLatch, grouping: Bool = true
    ) {
        self.grouping = grouping
        self.storageFull = storageFull
        self.environment = environment
        self.store = store
        self.index = index
        self.head = head
        let thread = Thread { [self] in
            // The name `top -H` and `scripts/bench-mixed.sh` show (Linux only): Foundation's `name`
            // names no thread there, and Glibc's module does not offer `pthread_setname_np`.
            try? "log-writer".write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            run()
        }
        thread.start()
    }

    func submit(_ appends: [StreamAppend]) async throws -> AppendResult {
        try await submit(.append(appends))
    }

    func copy(_ events: [RecordedEvent]) async throws {
        _ = try await submit(.copy(events))
    }

    /// Queues a copy behind everything queued so far and returns at once; a copy that does not
    /// follow the head when its turn comes is dropped. `processed` is called once it is written or
    /// dropped (or refused: the writer is closed).
    func enqueueCopy(_ events: [RecordedEvent], processed: @escaping @Sendable (Result<AppendResult, any Error>) -> Void) {
        condition.lock()
        let closed = isClosed
        if !closed {
            queue.append(Request(work: .copy(events), processed: processed))
            condition.signal()
        }
        condition.unlock()
        if closed { processed(.failure(EventLogError.closed)) }
    }

    private func submit(_ work: Request.Work) async throws -> AppendResult {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            defer { condition.unlock() }
            guard !isClosed else {
                continuation.resume(throwing: EventLogError.closed)
                return
            }
            queue.append(Request(work: work, continuation: continuation))
            condition.signal()
        }
    }

    /// Refuses new appends, finishes those already queued, and returns once the thread has stopped.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        while !isFinished { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while let batch = nextBatch() {
            let results = commit(batch)
            for (request, result) in zip(batch, results) {
                request.continuation?.resume(with: result)
                request.processed?(result)
            }
        }
        condition.lock()
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }

    private func nextBatch() -> [Request]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !isClosed { condition.wait() }
        if queue.isEmpty { return nil }
        guard grouping else { return [queue.removeFirst()] }
        // The callers the last commit acknowledged may be coming back with their next appends: while
        // they keep arriving (each within `arrivalGap` of the one before, for at most `longestWait`),
        // wait for them, so a steady load fills each commit instead of alternating between a full
        // batch and its stragglers. A lone writer (last batch of one) never waits, and when nobody
        // arrives the wait ends after one gap.
        let latest = Date(timeIntervalSinceNow: Self.longestWait)
        while queue.count < lastBatchSize, !isClosed {
            guard condition.wait(until: min(latest, Date(timeIntervalSinceNow: Self.arrivalGap))) else { break }
        }
        lastBatchSize = queue.count
        defer { queue.removeAll(keepingCapacity: true) }
        return queue
    }

    /// One durable commit of the log for the whole batch, then the index entries of what it appended
    /// (see `LogIndex`), then the results.
    private func commit(_ batch: [Request]) -> [Result<AppendResult, any Error>] {
        let started = DispatchTime.now().uptimeNanoseconds
        var results: [Result<AppendResult, any Error>] = []
        do {
            var entries: [LogIndex.Entry] = []
            let newHead = try environment.write { txn -> UInt64 in
                results = []
                var position = try store.lastPosition(txn)
                try index.catchUp(from: store, txn, through: position)
                let now = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
                entries = try index.environment.read { indexTxn in
                    var pending = PendingIndex(index: index, txn: indexTxn)
                    for request in batch {
                        do {
                            switch request.work {
                            case .append(let appends):
                                results.append(.success(try store.append(appends, in: txn, index: &pending, after: &position, now: now)))
                            case .copy(let events):
                                let new = events.drop { $0.position <= position }
                                for held in events.prefix(events.count - new.count) {
                                    guard try store.event(at: held.position, txn)?.id == held.id else { throw EventLogError.historyParted(position: held.position) }
                                }
                                try store.write(Array(new), in: txn, index: &pending, after: &position)
                                results.append(.success(AppendResult(positions: new.map(\.position), wasDuplicate: false)))
                            }
                        } catch let rejected as EventLogError {
                            results.append(.failure(rejected))
                        }
                    }
                    return pending.entries
                }
                return position
            }
            do {
                try index.add(entries, through: newHead)
                storageFull.recordSuccess()
            } catch {
                // The appends are durable and stand. The next commit, or the next read through the
                // index (`EventLog.readIndexed`), catches the index up first.
                indexFailures.increment()
                if let full = error as? StorageFullError { storageFull.record(full) }
            }
            head.publish(newHead)
            releaseAfterLongWrites(newHead)
        } catch {
            if let full = error as? StorageFullError { storageFull.record(full) }
            results = batch.map { _ in .failure(error) }
        }
        commitTimer.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started))
        batchSize.record(batch.count)
        return results
    }

    /// Unmaps the log's and the index's pages (`LMDBEnvironment.releaseMappedPages`) once every
    /// `releaseEvery` events written: a long run of writes (an import, a node copying a shared log)
    /// would otherwise keep every page its lookups touched resident until serving's periodic release.
    /// Each batch of 2,000 was measured too often: the index's pages mapped again each time made a
    /// copy 20 % slower. The release runs on a queue of its own, so no commit waits for it.
    private func releaseAfterLongWrites(_ newHead: UInt64) {
        guard newHead >= releasedAt + Self.releaseEvery,
              releaseUnderWay.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        releasedAt = newHead
        releasing.async { [self] in
            environment.releaseMappedPages()
            index.environment.releaseMappedPages()
            releaseUnderWay.store(false, ordering: .releasing)
        }
    }
}
