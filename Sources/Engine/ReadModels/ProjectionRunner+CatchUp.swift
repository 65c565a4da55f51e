import EventLog
import Foundation
import Synchronization

extension ProjectionRunner {
    /// Applies what the log holds beyond the checkpoints, batch by batch, and returns how many events
    /// it read. Used by `run` and by tools that rebuild without serving.
    /// A backlog of `BulkLoading.backlog` events or more is folded with the connection set for it,
    /// and, into read models that hold nothing yet, with their indexes for reads built after.
    @discardableResult
    public func catchUp(until target: UInt64 = .max) throws -> Int {
        try buildIndexesLeftUnbuilt()
        // The head read once: the fold reads what the log has committed, which may be past the head
        // the writer has yet to publish, so the position applied may pass a second read of it.
        let end = min(target, log.headPosition)
        let backlog = end - min(appliedPosition, end)
        guard backlog >= BulkLoading.backlog else { return try catchUpInBatches(until: target) }
        return try inBulk { try catchUpInBatches(until: target, releasingWhatItRead: true) }
    }

    /// Folds in bulk. A full disk that stops it, while it folds or while it builds the indexes it
    /// deferred, is `StorageFullError` (the server retries; a raw SQLite error from the index build
    /// stopped the server), and those indexes are built at the next catch-up rather than at the next start.
    private func inBulk<T>(_ body: () throws -> T) throws -> T {
        try mappingFullDisk {
            do { return try BulkLoading.during(database.pool, emptied: try emptied(), body) } catch {
                indexesLeftUnbuilt.store(true, ordering: .relaxed)
                throw error
            }
        }
    }

    private func buildIndexesLeftUnbuilt() throws {
        guard indexesLeftUnbuilt.load(ordering: .relaxed) else { return }
        try mappingFullDisk { try BulkLoading.createDeferredIndexes(database.pool) }
        indexesLeftUnbuilt.store(false, ordering: .relaxed)
    }

    /// Folds a log that is being filled meanwhile (a node's first copy of the shared log) as one bulk
    /// catch-up, as what is there is folded, until `filling` returns false; then up to the head.
    public func catchUp(whileFilling filling: () -> Bool) throws -> Int {
        try buildIndexesLeftUnbuilt()
        return try inBulk {
            var total = 0
            while filling() {
                let count = try catchUpInBatches(releasingWhatItRead: true)
                total += count
                if count == 0 { Thread.sleep(forTimeInterval: 0.02) }
            }
            return total + (try catchUpInBatches(releasingWhatItRead: true))
        }
    }

    /// Every projection, when none has folded anything yet: their tables are empty.
    private func emptied() throws -> [any ReadModelSchema] {
        try database.checkpoints().allSatisfy { $0.position == 0 } ? database.projections : []
    }
}
