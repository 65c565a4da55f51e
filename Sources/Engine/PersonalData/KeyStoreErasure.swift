import Foundation
import GRDB

/// Destroying keys. A destroyed key leaves a tombstone (`destroyed_key`: the user id and when),
/// and a key is never made again for a tombstoned user: `key(for:creating: true)` refuses, so a late
/// command or a stale session cannot start writing personal data for an erased account under a
/// fresh key, which would make the erasure partial and quietly revive the account. Someone who
/// comes back after erasure is a new user, with a new user id.
extension KeyStore {
    /// Destroys `userId`'s data key for good; see `applyErasures`.
    public func destroy(_ userId: Int64) throws {
        try applyErasures([userId])
    }

    /// Destroys the data keys of `userIds` (in one transaction) and tombstones them, also for users
    /// who never had a key, and returns those not tombstoned before. Idempotent, so a host can pass
    /// every user its log records as erased each time it opens the store: a key store restored from
    /// a backup taken before an erasure then loses the key again before anything reads it
    /// (ops/keys.md).
    ///
    /// The deleted rows are zeroed (`secure_delete`) and the WAL checkpointed and truncated, so the
    /// wrapped key is gone from the file, not just unreachable. If that checkpoint throws (readers
    /// held it off past the busy timeout) the keys are destroyed all the same, and calling again
    /// retries it.
    @discardableResult
    public func applyErasures(_ userIds: some Sequence<Int64>) throws -> [Int64] {
        let erased = Array(userIds)
        guard !erased.isEmpty else { return [] }
        let destroyedAt = Date()
        let newlyDestroyed = try pool.write { db in
            try erased.filter { userId in
                try db.execute(sql: "DELETE FROM data_key WHERE user_id = ?", arguments: [userId])
                try db.execute(
                    sql: "INSERT INTO destroyed_key (user_id, destroyed_at) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING",
                    arguments: [userId, destroyedAt]
                )
                return db.changesCount > 0
            }
        }
        cache.withLock { $0.destroyed(erased) }
        try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        return newlyDestroyed
    }
}
