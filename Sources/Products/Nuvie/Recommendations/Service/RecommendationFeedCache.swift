import ReadModels
import EventLog
import Foundation
import GRDB
import NuvieProjections
import NIOConcurrencyHelpers

/// `recommendation_feed`: each user's latest recommendation list with its time to live, in its own
/// SQLite file beside the read models. It is a cache, not a read model: nothing in it comes from the
/// log alone (it also depends on when the model was trained), so it is neither rebuilt nor backed up,
/// and each start begins it empty. A list names other users (a friend's recommendation, the reason
/// it gives), so an erasure empties the whole cache, file and WAL, not only the erased user's entry:
/// it may hold nobody's words once they are gone.
/// An entry serves until it expires or the user's own signals change (`stamp`). The most recently
/// used entries are also kept decoded in memory, so a hit costs no JSON decoding. On a full disk
/// an entry is kept in memory only: the feed still answers, and `storageFailure` says why.
public final class RecommendationFeedCache: Sendable {
    private let pool: DatabasePool
    private let path: String
    private let memory = NIOLockedValueBox(Memo<Int64, RecommendationList>())
    private let storageFull = StorageFullLatch()
    private let purgeCount = NIOLockedValueBox<UInt64>(0)

    public init(path: String) throws {
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        self.path = path
        // A stop may have left entries of users erased since (offline, or before their friends' entries went).
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        pool = try StorageFullError.mappingSQLite(store: .recommendationCache, path: path) {
            var configuration = Configuration()
            // The WAL's truncation after an erasure waits for the feed's point reads, on the writer's queue.
            configuration.busyMode = .timeout(5)
            // An erased user's entry (their taste, their friends' names) is zeroed, not left in a free page.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
            PrivateSQLiteFile.prepare(path)
            let pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
            return pool
        }
    }

    /// Set while entries cannot be stored because the filesystem under the cache is full.
    public var storageFailure: (error: StorageFullError, since: Date)? { storageFull.current }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("recommendation_feed.v1") { db in
            try db.create(table: "recommendation_feed") { t in
                t.primaryKey("user_id", .integer)
                t.column("stamp", .text).notNull()
                t.column("generated_at", .integer).notNull()
                t.column("expires_at", .integer).notNull()
                t.column("list", .blob).notNull()
            }
        }
        return migrator
    }

    /// The user's entry when it has not expired at `now` and was made from the same `stamp`.
    public func fresh(userId: Int64, stamp: String, now: Date) throws -> RecommendationList? {
        let now = now.timeIntervalSince1970
        if let list = memory.withLockedValue({ $0.get(userId, key: stamp, now: now) }) { return list }
        let purges = purges
        let stored = try pool.read { db -> (RecommendationList, Double)? in
            guard let row = try Row.fetchOne(db, sql: "SELECT stamp, expires_at, list FROM recommendation_feed WHERE user_id = ?", arguments: [userId]),
                  row["stamp"] == stamp, Double(row["expires_at"] as Int64) > now,
                  let list = try? Self.decoder.decode(RecommendationList.self, from: row["list"] as Data)
            else { return nil }
            return (list, Double(row["expires_at"] as Int64))
        }
        guard let (list, expiresAt) = stored else { return nil }
        // Read before an emptying finished, it may name a user erased meanwhile: not kept.
        memory.withLockedValue { memo in
            guard self.purges == purges else { return }
            memo.put(userId, key: stamp, list, expiresAt: expiresAt)
        }
        return list
    }

    /// How many times every entry was dropped (`forgetEveryone`): read before a list is made, and
    /// given to `store`, so a list made before an erasure is not stored after the cache was emptied.
    public var purges: UInt64 { purgeCount.withLockedValue { $0 } }

    /// Stores `list`, unless the cache was emptied since `purges` was read (then it may name a user
    /// erased meanwhile).
    public func store(_ list: RecommendationList, stamp: String, madeAfter purges: UInt64) throws {
        let data = try Self.encoder.encode(list)
        let generated = Int64(list.generatedAt.timeIntervalSince1970)
        do {
            // Checked in the write transaction: an emptying counts first, then deletes in one of its own.
            try pool.write { db in
                guard self.purges == purges else { return }
                try db.execute(sql: """
                    INSERT INTO recommendation_feed (user_id, stamp, generated_at, expires_at, list) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET stamp = excluded.stamp, generated_at = excluded.generated_at,
                        expires_at = excluded.expires_at, list = excluded.list
                    """, arguments: [list.userId, stamp, generated, generated + Int64(list.ttlSeconds), data])
            }
            storageFull.recordSuccess()
        } catch {
            guard let full = StorageFullError.sqlite(error, store: .recommendationCache, path: path) else { throw error }
            storageFull.record(full)
        }
        memory.withLockedValue { memo in
            guard self.purges == purges else { return }
            memo.put(list.userId, key: stamp, list, expiresAt: Double(generated + Int64(list.ttlSeconds)))
        }
    }

    /// Drops every entry, from memory, the file and its WAL: after an erasure, since any list may
    /// name the erased user. Memory is emptied again once the rows are gone: a lookup that read a row
    /// before then either finds the count moved or is emptied with it.
    public func forgetEveryone() async throws {
        dropMemory()
        try await pool.write { db in try db.execute(sql: "DELETE FROM recommendation_feed") }
        dropMemory()
        _ = try await pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }

    private func dropMemory() {
        memory.withLockedValue { memo in
            purgeCount.withLockedValue { $0 += 1 }
            memo = Memo(capacity: memo.capacity)
        }
    }

    public func close() throws {
        try pool.close()
    }

    private static let encoder = JSONEncoder()
    private static let decoder = JSONDecoder()
}

extension StorageFullError.Store {
    public static let recommendationCache = StorageFullError.Store(rawValue: "recommendation_cache", title: "the recommendation cache (SQLite)")
}
