import Foundation
import GRDB
import Logging

/// How a rebuild is going: where it is in the log, how fast, and how long it expects to take.
public struct RebuildProgress: Sendable, Equatable {
    public var projections: [String]
    public var position: UInt64
    public var headPosition: UInt64
    public var eventsPerSecond: Int
    public var remaining: Duration?
    public var finished: Bool
}

public enum RebuildError: Error, Equatable, CustomStringConvertible {
    case unknownProjection(String, known: [String])
    case notDirectoryBacked
    /// A runner must fold exactly the read models its database holds.
    case projectionsDiffer(runner: [String], database: [String])
    /// Stopped before the swap (the server shutting down); the live read models are untouched.
    case cancelled
    /// A user was erased while it ran: what it had folded of them was opened before their key was
    /// destroyed, so the new generation is deleted at once rather than kept until it folds the erasure.
    case erasedMeanwhile
    /// A rebuilt projection could not apply an event: nothing is swapped in, the live read models
    /// stay as they were.
    case projectionFailed(String, position: Int64, failure: String)

    public var description: String {
        switch self {
        case let .unknownProjection(name, known): "no projection named \(name) (known: \(known.joined(separator: ", ")))"
        case .notDirectoryBacked: "this read database was not opened from a data directory, so it has no generations to swap"
        case let .projectionsDiffer(runner, database): "the runner folds \(runner) but the read database holds \(database)"
        case .cancelled: "stopped before the swap (the server was shutting down); the live read models are unchanged"
        case .erasedMeanwhile: "stopped before the swap: a user was erased while it ran, and what it had folded of them is deleted with it; run it again"
        case let .projectionFailed(name, position, failure):
            "\(name) could not apply the event at position \(position) (\(failure)): nothing was swapped in, the live read models are unchanged"
        }
    }
}

extension ProjectionRunner {
    /// Rebuilds projections from position 0 into a new read-model generation and swaps it in, while
    /// the current one keeps serving. `names` nil rebuilds everything into an empty file; otherwise
    /// the live file is copied (SQLite online backup) and only the named projections are reset in
    /// the copy. The swap happens between two of this runner's batches, after the rebuild has
    /// caught up with the log, so readers see the old read models until the new ones are complete.
    /// `isCancelled` is asked between chunks of 50,000 events: true stops before the swap.
    public func rebuild(
        _ names: [String]? = nil, isCancelled: () -> Bool = { false }, progress: (RebuildProgress) -> Void = { _ in }
    ) throws -> RebuildProgress {
        guard let files = database.files else { throw RebuildError.notDirectoryBacked }
        let known = Set(database.projections.map(\.name))
        if let unknown = names?.first(where: { !known.contains($0) }) { throw RebuildError.unknownProjection(unknown, known: database.projections.map(\.name)) }
        let selected = names ?? database.projections.map(\.name)

        // Before the copy: an erasure during it stops the rebuild too, as one during its batches does.
        let destructions = personalData.keyDestructions
        let path = files.nextPath()
        var rebuilt: ReadDatabase?
        var report: RebuildProgress
        // Whatever stops the rebuild before the swap deletes the generation it was building: its rows
        // were opened with keys that may be destroyed since, and it holds as much disk as the live one.
        do {
            if names != nil { try ReadDatabase.backup(fileAt: database.path, to: path) }
            let generation = try ReadDatabase(path: path, projections: database.projections)
            rebuilt = generation
            report = try rebuild(selected, resetting: names != nil, into: generation, since: destructions, isCancelled: isCancelled, progress: progress)
        } catch {
            try? rebuilt?.close()
            files.remove(generationAt: path)
            throw error
        }
        publishProgress(try database.checkpoints())
        report.finished = true
        logger.info("read models rebuilt and swapped in", metadata: [
            "projections": "\(selected)", "position": "\(report.position)", "events_per_second": "\(report.eventsPerSecond)", "file": "\(path)",
        ])
        progress(report)
        return report
    }

    /// Folds the log into `rebuilt` (a copy of the live file whose `selected` projections are reset
    /// first, when `resetting`) and swaps it in; returns how far and how fast it went.
    private func rebuild(
        _ selected: [String], resetting: Bool, into rebuilt: ReadDatabase, since destructions: UInt64,
        isCancelled: () -> Bool, progress: (RebuildProgress) -> Void
    ) throws -> RebuildProgress {
        if resetting {
            try rebuilt.pool.write { db in
                for projection in rebuilt.projections where selected.contains(projection.name) { try ReadDatabase.reset(projection, db) }
            }
        }
        let rebuilder = try ProjectionRunner(
            log: log, personalData: personalData, database: rebuilt, projections: projections, batchSize: 10_000, reportsMetrics: false, logger: logger
        )
        let started = ContinuousClock.now
        var report = RebuildProgress(projections: selected, position: 0, headPosition: log.headPosition, eventsPerSecond: 0, remaining: nil, finished: false)
        func measure() {
            report.position = rebuilder.appliedPosition
            report.headPosition = log.headPosition
            let rate = Double(report.position) / max((ContinuousClock.now - started).seconds, 0.001)
            report.eventsPerSecond = Int(rate)
            report.remaining = rate > 0 ? .seconds(Double(report.headPosition - min(report.position, report.headPosition)) / rate) : nil
        }
        try BulkLoading.during(rebuilt.pool, emptied: rebuilt.projections.filter { selected.contains($0.name) }) {
            while log.headPosition > rebuilder.appliedPosition + UInt64(rebuilder.batchSize) {
                if isCancelled() { throw RebuildError.cancelled }
                if personalData.keyDestructions != destructions { throw RebuildError.erasedMeanwhile }
                _ = try rebuilder.catchUpInBatches(until: rebuilder.appliedPosition + 50_000, releasingWhatItRead: true)
                measure()
                progress(report)
            }
        }
        func refusingAStoppedProjection() throws {
            if let failed = try rebuilt.checkpoints().first(where: { selected.contains($0.name) && $0.failedPosition != nil }) {
                throw RebuildError.projectionFailed(failed.name, position: failed.failedPosition ?? 0, failure: failed.failure ?? "no reason recorded")
            }
        }
        // Before the live folds are held: a stopped one would not fold, and the rest of the log read
        // for erasures alone would hold them for nothing.
        try refusingAStoppedProjection()
        try batchLock.withLock {
            try rebuilder.catchUp()
            try refusingAStoppedProjection()
            // Checked between batches above, and here: a log too short for those batches has none.
            if personalData.keyDestructions != destructions { throw RebuildError.erasedMeanwhile }
            try database.adopt(rebuilt)
        }
        measure()
        return report
    }
}

extension Duration {
    /// The duration in seconds, for rates and ETAs.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole nanoseconds, for swift-metrics timers and client deadlines.
    public var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
