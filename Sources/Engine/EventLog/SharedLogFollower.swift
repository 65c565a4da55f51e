import Foundation
import Logging
import NIOConcurrencyHelpers

/// Keeps this process's embedded log a copy of a shared log, in the shared log's order, and sends
/// this process's appends there. An append answers once the copy holds the shared log as it was
/// after that append's commit: the caller's own events, and, after a conflict, the writes that won,
/// so the retry decides on them.
final class SharedLogFollower: Sendable {
    let shared: any SharedLog
    private let writer: GroupCommitWriter
    private let localHead: PositionWatcher
    /// The highest shared head heard of: the copy follows it.
    private let sharedHead: PositionWatcher
    private let batcher: SharedAppendBatcher
    private let ownCommits = OwnCommits()
    private let beforeCopy: (@Sendable () async throws -> Void)?
    private let localEventId: @Sendable (UInt64) throws -> UUID?
    /// Set when the shared log no longer holds what this copy took from it.
    private let parted: PartedHistory
    private let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])
    private let lastFailure = NIOLockedValueBox<(message: String, since: Date)?>(nil)
    private let headReads: SharedHeadReads
    private let isClosed = NIOLockedValueBox(false)
    private let logger = Logger(label: "engine.shared-log")
    private static let copyBatch = 2_000
    /// How long an append waits for this node's copy to hold what it committed.
    private static let copyTimeout = Duration.seconds(10)
    /// How often the copy's last event is compared with the shared log's (one indexed read).
    private static let historyCheckInterval = Duration.seconds(1)

    init(
        shared: any SharedLog, writer: GroupCommitWriter, localHead: PositionWatcher, beforeCopy: (@Sendable () async throws -> Void)?,
        localEventId: @escaping @Sendable (UInt64) throws -> UUID?, localVersions: @escaping SharedAppendBatcher.LocalVersions
    ) {
        self.shared = shared
        self.beforeCopy = beforeCopy
        self.localEventId = localEventId
        self.writer = writer
        self.localHead = localHead
        sharedHead = PositionWatcher(position: localHead.position)
        parted = PartedHistory(location: shared.location)
        headReads = SharedHeadReads()
        // This node's own commits are copied without reading them back when they follow the copy's
        // head (their keys are this node's already). When another node wrote in between, the writer
        // drops the copy and the follower reads the gap.
        let copied: SharedAppendBatcher.Copied = {
            let position = localHead.position
            return try position == 0 ? nil : localEventId(position).map { CopiedEvent(position: position, id: $0) }
        }
        batcher = SharedAppendBatcher(
            shared: shared, localVersions: localVersions, copied: copied, ownCommits: ownCommits, writer: writer, parted: parted
        )
        tasks.withLockedValue {
            $0 = [
                Task { [self] in
                    await checkSameHistory()
                    await follow()
                },
                Task { [self] in await shared.watchHead { [self] in heard($0) } },
                Task { [self] in await checkSameHistoryWhileFollowing() },
            ]
        }
    }

    /// Set while the shared log cannot be read (the copy, and so every read model here, is behind), or
    /// for good once its history parted from the copy's.
    var failure: (message: String, since: Date)? { parted.found ?? lastFailure.withLockedValue { $0 } }

    private var divergence: String? { parted.found?.message }

    var sharedHeadPosition: UInt64 { sharedHead.position }

    /// The shared log's head as its server says now, read once for every caller asking meanwhile
    /// (`SharedHeadReads`), and followed by the copy at once. While the shared log is known to be
    /// unreachable (checked as each read begins, so callers queued behind a read that failed are not
    /// held by another), throws without asking: a query would only wait out its timeout. Whatever
    /// the query fails with, it throws `SharedLogUnreachable`.
    func currentHead() async throws -> UInt64 {
        try await headReads.current { [self] in
            if let failure { throw SharedLogUnreachable(reason: failure.message, outcomeUnknown: false) }
            do {
                let head = try await shared.head()
                heard(.success(head))
                return head
            } catch {
                heard(.failure(error))
                throw error as? SharedLogUnreachable ?? SharedLogUnreachable(reason: "\(error)", outcomeUnknown: false)
            }
        }
    }

    func append(_ appends: [StreamAppend]) async throws -> AppendResult {
        guard !isClosed.withLockedValue({ $0 }) else { throw EventLogError.closed }
        if let divergence { throw SharedLogUnreachable(reason: divergence, outcomeUnknown: false) }
        let (decision, headAfter) = try await batcher.submit(appends)
        sharedHead.publish(headAfter)
        guard await localHead.wait(until: headAfter, timeout: Self.copyTimeout) else {
            throw SharedLogUnreachable(reason: "committed, but this node could not copy it back in time", outcomeUnknown: true)
        }
        let result = try decision.get().result
        // Committed at positions where the copy already held other events: the log lost those.
        let held: UUID?
        do { held = try result.positions.first.flatMap(localEventId) } catch {
            throw SharedLogUnreachable(reason: "committed, but this node could not read its copy back: \(error)", outcomeUnknown: true)
        }
        if let position = result.positions.first, let ours = appends.lazy.flatMap(\.events).first?.id, held != ours {
            parted.found(at: position)
            throw SharedLogUnreachable(reason: divergence ?? "", outcomeUnknown: true)
        }
        return result
    }

    private func heard(_ head: Result<UInt64, any Error>) {
        switch head {
        case .success(let position):
            sharedHead.publish(position)
            if localHead.position >= position { recovered() }
        case .failure(let error):
            failed(error)
        }
    }

    private func failed(_ error: any Error) {
        if divergence != nil { return }
        let first = lastFailure.withLockedValue { failure in
            defer { failure = failure ?? ("\(error)", Date()) }
            return failure == nil
        }
        if first { logger.error("cannot read the shared log", metadata: ["log": "\(shared.location)", "error": "\(error)"]) }
    }

    private func recovered() {
        guard divergence == nil else { return }
        let wasFailing = lastFailure.withLockedValue { failure in
            defer { failure = nil }
            return failure != nil
        }
        if wasFailing {
            logger.notice("shared log readable again", metadata: ["log": "\(shared.location)"])
            Task { await checkSameHistory() }
        }
    }

    /// At the start, and after the shared log could not be read (its server may have been replaced by a
    /// promoted standby), checks that it still holds the last event this copy took from it. A standby promoted
    /// without every commit (asynchronous replication) has lost that event, and may give its position
    /// to another: this node then stops writing and copying, and says so in `/health`, until its data
    /// directory is rebuilt (ops/postgresql.md, "Failover"). Every copy checks the same of the events
    /// it overlaps (`follow` reads from the copy's last event, and the writer compares what it skips),
    /// since the other nodes may have written past the lost events before this check runs.
    /// Asked of a server that takes writes: a standby may only be behind, and cannot say.
    func checkSameHistory() async {
        let local = localHead.position
        guard local > 0, let ours = try? localEventId(local) else { return }
        let theirs: UUID?
        do { theirs = try await shared.eventId(at: local) } catch { return }
        guard theirs != ours else { return }
        parted.found(at: local)
    }

    /// A promoted standby's history may reach exactly as far as this copy, with nothing written after
    /// it, or only by this node (whose commits follow its copy's head and are not read back): then no
    /// event the follower reads overlaps the lost ones, and this node, idle through the failover, may
    /// have seen no outage to check after. So the copy's last event is compared with the log's as long
    /// as the node follows it.
    private func checkSameHistoryWhileFollowing() async {
        while divergence == nil {
            do { try await Task.sleep(for: Self.historyCheckInterval) } catch { return }
            if failure == nil { await checkSameHistory() }
        }
    }

    /// Returns once the copy holds every event the shared log held when called; throws when the
    /// shared log cannot be reached at all.
    func catchUp() async throws {
        if let divergence { throw SharedLogUnreachable(reason: divergence, outcomeUnknown: false) }
        let head = try await shared.head()
        sharedHead.publish(head)
        while await !localHead.wait(until: head, timeout: .seconds(1)) {
            if let divergence { throw SharedLogUnreachable(reason: divergence, outcomeUnknown: false) }
            if isClosed.withLockedValue({ $0 }) { throw EventLogError.closed }
        }
    }

    func close() {
        isClosed.withLockedValue { $0 = true }
        for task in tasks.withLockedValue({ $0 }) { task.cancel() }
        shared.close()
    }

    private func follow() async {
        var pause = Duration.milliseconds(50)
        while !Task.isCancelled {
            let local = localHead.position
            guard divergence == nil else { return }
            guard sharedHead.position > local else {
                await sharedHead.wait(beyond: local)
                continue
            }
            // What this node committed itself is on its way into the copy: let it land, then read
            // only what is still missing (another node's commits).
            await ownCommits.waitForLanding()
            let landed = localHead.position
            guard sharedHead.position > landed else { continue }
            do {
                // From the copy's last event, which the writer checks is the same before skipping it;
                // a log that no longer holds it at all lost it.
                let events = try await shared.events(after: landed == 0 ? 0 : landed - 1, limit: Self.copyBatch)
                if landed > 0, events.first?.position != landed {
                    parted.found(at: landed)
                    return
                }
                if events.count <= (landed == 0 ? 0 : 1) {
                    try await Task.sleep(for: .milliseconds(10))
                } else {
                    try await beforeCopy?()
                    try await writer.copy(events)
                }
                recovered()
                pause = .milliseconds(50)
            } catch let error where error is CancellationError || error as? EventLogError == .closed {
                return
            } catch EventLogError.historyParted(let position) {
                parted.found(at: position)
                return
            } catch EventLogError.copiedStateParted(let reason) {
                parted.found(reason)
                return
            } catch {
                failed(error)
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(2))
            }
        }
    }
}

/// Sends appends to the shared log one commit at a time: every append that arrives while a commit is
/// under way goes into the next one (group commit across requests).
final class SharedAppendBatcher: Sendable {
    typealias Outcome = (decision: Result<AppendDecision, EventLogError>, head: UInt64)
    /// The versions the copy holds of these streams; nil when it holds one of these event ids.
    typealias LocalVersions = @Sendable (_ streams: [String], _ eventIds: [UUID]) throws -> [String: UInt64]?
    /// The copy's last event.
    typealias Copied = @Sendable () throws -> CopiedEvent?

    private struct State {
        var waiting: [(appends: [StreamAppend], continuation: CheckedContinuation<Outcome, any Error>)] = []
        var committing = false
    }

    private let shared: any SharedLog
    private let localVersions: LocalVersions
    private let copied: Copied
    private let ownCommits: OwnCommits
    private let writer: GroupCommitWriter
    private let parted: PartedHistory
    private let state = NIOLockedValueBox(State())
    private static let largestCommit = 512

    init(
        shared: any SharedLog, localVersions: @escaping LocalVersions, copied: @escaping Copied, ownCommits: OwnCommits, writer: GroupCommitWriter,
        parted: PartedHistory
    ) {
        self.shared = shared
        self.localVersions = localVersions
        self.copied = copied
        self.ownCommits = ownCommits
        self.writer = writer
        self.parted = parted
    }

    func submit(_ appends: [StreamAppend]) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let startsCommitting = state.withLockedValue { state -> Bool in
                state.waiting.append((appends, continuation))
                defer { state.committing = true }
                return !state.committing
            }
            if startsCommitting { Task { await commitWhileWaiting() } }
        }
    }

    private func commitWhileWaiting() async {
        // The stream versions of this node's last commit, which its copy may not hold yet.
        var lastCommitted: [String: UInt64] = [:]
        while true {
            let batch = state.withLockedValue { state in
                let batch = Array(state.waiting.prefix(Self.largestCommit))
                state.waiting.removeFirst(batch.count)
                if batch.isEmpty { state.committing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            let commit = ownCommits.begin()
            do {
                let requests = batch.map(\.appends)
                let (decisions, head) = try await shared.append(requests, predicted: predictedVersions(requests, lastCommitted), onTopOf: copied())
                let written = decisions.flatMap { decision -> [RecordedEvent] in
                    guard case .success(.write(let events)) = decision else { return [] }
                    return events
                }
                lastCommitted = Dictionary(written.map { ($0.streamId, $0.streamVersion) }, uniquingKeysWith: max)
                if written.isEmpty {
                    ownCommits.landed(commit)
                } else {
                    // A commit at positions this copy already holds others at: the log lost them.
                    writer.enqueueCopy(written) { [ownCommits, parted] copied in
                        if case .failure(EventLogError.historyParted(let position)) = copied { parted.found(at: position) }
                        ownCommits.landed(commit)
                    }
                }
                for (request, decision) in zip(batch, decisions) { request.continuation.resume(returning: (decision, head)) }
            } catch EventLogError.historyParted(let position) {
                parted.found(at: position)
                ownCommits.landed(commit)
                let refused = SharedLogUnreachable(reason: parted.found?.message ?? "", outcomeUnknown: false)
                for request in batch { request.continuation.resume(throwing: refused) }
            } catch {
                ownCommits.landed(commit)
                for request in batch { request.continuation.resume(throwing: error) }
            }
        }
    }

    /// What this node's copy, and its last commit not copied yet, say of the streams `requests` touch;
    /// nil when the copy cannot say (a retry of an event it holds, or it could not be read).
    private func predictedVersions(_ requests: [[StreamAppend]], _ lastCommitted: [String: UInt64]) -> [String: UInt64]? {
        let appends = requests.joined()
        let streams = Array(Set(appends.map(\.streamId)))
        guard let copied = try? localVersions(streams, appends.flatMap { $0.events.map(\.id) }) else { return nil }
        return copied.merging(lastCommitted.filter { copied[$0.key] != nil }, uniquingKeysWith: max)
    }
}

/// This node's commits to the shared log, numbered as they begin, and which of them have landed in
/// its copy (copied, dropped by the writer for a gap before them, or failed). The follower waits for
/// those under way rather than reading them back.
final class OwnCommits: Sendable {
    private let begun = NIOLockedValueBox<UInt64>(0)
    private let landedThrough = PositionWatcher(position: 0)

    func begin() -> UInt64 {
        begun.withLockedValue { count in
            count += 1
            return count
        }
    }

    func landed(_ commit: UInt64) {
        landedThrough.publish(commit)
    }

    /// Returns once every commit begun so far has landed, or the task is cancelled.
    func waitForLanding() async {
        await landedThrough.wait(until: begun.withLockedValue { $0 })
    }
}
