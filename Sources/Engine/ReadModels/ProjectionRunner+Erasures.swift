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
