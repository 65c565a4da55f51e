import EventSourcing
import Foundation
import GRDB

extension ProjectionRunner {
    /// A stopped projection folds nothing more until a replay, yet its tables still answer reads:
    /// the erasures among `events` are applied to it all the same (each deletes or blanks the user's
    /// rows, whatever came before it), so no erased user is served from it meanwhile. Its checkpoint
    /// stays where it stopped; an erasure it cannot apply either is rolled back for it and logged.
    func applyErasures(in events: [Recorded<Event>], toStopped checkpoints: [Checkpoint], _ db: Database) {
        let stopped = checkpoints.filter { $0.failedPosition != nil }
        guard !stopped.isEmpty else { return }
        let erasures = events.filter { Catalog.erasure(in: $0.event) != nil }
        guard !erasures.isEmpty else { return }
        for checkpoint in stopped {
            guard let projection = projections.first(where: { $0.name == checkpoint.name }) else { continue }
            for erasure in erasures where erasure.position > UInt64(clamping: checkpoint.position) {
                do {
                    try db.inSavepoint {
                        try projection.apply(erasure, db)
                        return .commit
                    }
                } catch {
                    logger.error("a stopped projection could not apply an erasure; a replay will", metadata: [
                        "projection": "\(projection.name)", "position": "\(erasure.position)", "error": "\(error)",
                    ])
                }
            }
        }
    }

    /// With every projection stopped no batch reads the log, yet their tables still answer reads (and
    /// an erasure's wait for the read models ends at once): the erasures recorded since still reach
    /// them, read from where this last read (from the earliest stop after a start: an erasure applied
    /// again changes nothing). Only erasures are decoded, so the event that stopped the projections
    /// cannot stop this. Returns how many events it read, the last one's position and the erasures.
    func applyErasuresWhileEveryProjectionIsStopped(
        until target: UInt64, _ checkpoints: [Checkpoint], _ db: Database
    ) throws -> (count: Int, through: UInt64, erasures: [Recorded<Event>])? {
        guard let stoppedAt = checkpoints.filter({ $0.failedPosition != nil }).map({ UInt64(clamping: $0.position) }).min() else { return nil }
        let from = max(erasuresScannedThrough.withLock { $0 }, stoppedAt) + 1
        guard from <= target else { return nil }
        let records = try log.read(from: from, limit: min(batchSize, Int(clamping: target - from + 1)))
        guard let last = records.last?.position else { return nil }
        let erasures = records.filter { $0.type == UserErased.typeName }.compactMap { record -> Recorded<Event>? in
            do { return try Catalog.decode(record, personalData: personalData) } catch {
                logger.error("an erasure could not be read for the stopped projections; a replay will apply it", metadata: [
                    "position": "\(record.position)", "error": "\(error)",
                ])
                return nil
            }
        }
        applyErasures(in: erasures, toStopped: checkpoints, db)
        noteErasures(in: erasures)
        return (records.count, last, erasures)
    }

    /// Notes that a batch folded an erasure, for `truncateWALAfterErasures`.
    func noteErasures(in events: [Recorded<Event>]) {
        if events.contains(where: { Catalog.erasure(in: $0.event) != nil }) { erasuresFolded.store(true, ordering: .releasing) }
    }

    /// After an erasure is folded, on every node (one erased through another node included): the
    /// deleted rows are zeroed in the file (`secure_delete`), but the WAL keeps their pages as they
    /// were until it is checkpointed and truncated. Readers can hold that off past the busy timeout;
    /// it is tried again, not sooner than `walTruncationRetry` after, so the folds are not held up.
    func truncateWALAfterErasures() {
        guard erasuresFolded.load(ordering: .acquiring) else { return }
        let now = ContinuousClock.now
        if let failed = lastFailedWALTruncation.withLock({ $0 }), now - failed < Self.walTruncationRetry { return }
        do {
            erasuresFolded.store(false, ordering: .releasing)
            try database.truncateWALNow()
            lastFailedWALTruncation.withLock { $0 = nil }
        } catch {
            lastFailedWALTruncation.withLock { $0 = now }
            erasuresFolded.store(true, ordering: .releasing)
            logger.warning("could not truncate the read models' WAL after an erasure; trying again", metadata: ["error": "\(error)"])
        }
    }

    static var walTruncationRetry: Duration { .seconds(30) }
}
