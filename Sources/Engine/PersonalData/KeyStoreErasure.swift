import Foundation
import GRDB

/// Destroying keys. A destroyed key leaves a tombstone (`destroyed_key`: the user id, when, and the
/// log position of the erasure event when there is one), and a key is never made again for a
/// tombstoned user: `key(for:creating: true)` refuses, so a late command or a stale session cannot
/// start writing personal data for an erased account under a fresh key, which would make the
/// erasure partial and quietly revive the account. Someone who comes back after erasure is a new
/// user, with a new user id.
extension KeyStore {
    /// A user's erasure as the log records it.
    public struct Erasure: Sendable, Equatable {
        public var userId: Int64
        /// The position of its `user-erased` event.
        public var position: UInt64?

        public init(userId: Int64, position: UInt64?) {
            self.userId = userId
            self.position = position
        }
    }

    /// Destroys `userId`'s data key for good; see `applyErasures`.
    public func destroy(_ userId: Int64) throws {
        try applyErasures([Erasure(userId: userId, position: nil)])
    }

    /// Destroys the data keys of `erasures` (in one transaction) and tombstones them, also for users
    /// who never had a key, and returns those not tombstoned before. With `reconciledThrough`, records
    /// that every erasure in the log up to that position is applied (`ProductStores.reconcileErasures`).
    /// Idempotent, so a host can pass every erasure its log records since the last reconciliation
    /// each time it opens the store: a key store restored from a backup taken before an erasure then
    /// loses the key again before anything reads it (ops/privacy.md).
    ///
    /// The deleted rows are zeroed (`secure_delete`) and the WAL checkpointed and truncated, so the
    /// wrapped key is gone from the file, not just unreachable (`truncateWALAfterDestruction`).
    @discardableResult
    public func applyErasures(_ erasures: [Erasure], reconciledThrough: UInt64? = nil) throws -> [Int64] {
        guard !erasures.isEmpty || reconciledThrough != nil else { return [] }
        let destroyedAt = Date()
        let newlyDestroyed = try write { db in
            let destroyed = try erasures.filter { erasure in
                try db.execute(sql: "DELETE FROM data_key WHERE user_id = ?", arguments: [erasure.userId])
                try db.execute(
                    sql: "INSERT INTO destroyed_key (user_id, destroyed_at, log_position) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
                    arguments: [erasure.userId, destroyedAt, erasure.position.map(Int64.init)]
                )
                return db.changesCount > 0
            }.map(\.userId)
            if let reconciledThrough {
                try db.execute(
                    sql: "INSERT INTO reconciliation (id, log_position) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET log_position = excluded.log_position",
                    arguments: [Int64(reconciledThrough)]
                )
            }
            return destroyed
        }
        guard !erasures.isEmpty else { return [] }
        destroyedInCache(erasures.map(\.userId), copiedFromShared: false)
        truncateWALAfterDestruction()
        return newlyDestroyed
    }

    /// Records where the log holds these users' erasures: for a tombstone made before its event was
    /// appended (`UserErasure`), or one whose event a restored log records elsewhere.
    public func recordErasurePositions(_ erasures: [Erasure]) throws {
        guard !erasures.isEmpty else { return }
        try write { db in
            for erasure in erasures {
                try db.execute(
                    sql: "UPDATE destroyed_key SET log_position = ? WHERE user_id = ?",
                    arguments: [erasure.position.map(Int64.init), erasure.userId]
                )
            }
        }
    }

    /// The highest user id with a key or a tombstone (0 for none).
    public func highestKnownUser() throws -> Int64 {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(user_id) FROM (SELECT user_id FROM data_key UNION ALL SELECT user_id FROM destroyed_key)")
        } ?? 0
    }

    /// The user's tombstone, if they were erased.
    public func erasure(of userId: Int64) throws -> Erasure? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT user_id, log_position FROM destroyed_key WHERE user_id = ?", arguments: [userId]).map { row in
                Erasure(userId: row["user_id"], position: (row["log_position"] as Int64?).map(UInt64.init))
            }
        }
    }

    /// The log position up to which every erasure is applied here (0 for a new store).
    public func reconciledThrough() throws -> UInt64 {
        try pool.read { db in try Int64.fetchOne(db, sql: "SELECT log_position FROM reconciliation WHERE id = 1") }.map(UInt64.init) ?? 0
    }

    /// Every tombstone, by user id.
    public func erasures() throws -> [Erasure] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT user_id, log_position FROM destroyed_key ORDER BY user_id").map { row in
                Erasure(userId: row["user_id"], position: (row["log_position"] as Int64?).map(UInt64.init))
            }
        }
    }
}
