import Foundation
import GRDB

/// `recommendation_feed`: each user's latest recommendation list with its time to live, in its own
/// SQLite file beside the read models. It is a cache, not a read model: nothing in it comes from the
/// log alone (it also depends on when the model was trained), so it is neither rebuilt nor backed up.
/// An entry serves until it expires or the user's own signals change (`stamp`).
public final class RecommendationFeedCache: Sendable {
    public struct Entry: Sendable {
        public var list: RecommendationList
        public var stamp: String
    }

    private let pool: DatabasePool

    public init(path: String) throws {
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        pool = try DatabasePool(path: path)
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
        try migrator.migrate(pool)
    }

    /// The user's entry when it has not expired at `now` and was made from the same `stamp`.
    public func fresh(userId: Int64, stamp: String, now: Date) throws -> RecommendationList? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT stamp, expires_at, list FROM recommendation_feed WHERE user_id = ?", arguments: [userId]),
                  row["stamp"] == stamp, Double(row["expires_at"] as Int64) > now.timeIntervalSince1970
            else { return nil }
            return try? Self.decoder.decode(RecommendationList.self, from: row["list"] as Data)
        }
    }

    public func store(_ list: RecommendationList, stamp: String) throws {
        let data = try Self.encoder.encode(list)
        let generated = Int64(list.generatedAt.timeIntervalSince1970)
        try pool.write { db in
            try db.execute(sql: """
                INSERT INTO recommendation_feed (user_id, stamp, generated_at, expires_at, list) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET stamp = excluded.stamp, generated_at = excluded.generated_at,
                    expires_at = excluded.expires_at, list = excluded.list
                """, arguments: [list.userId, stamp, generated, generated + Int64(list.ttlSeconds), data])
        }
    }

    public func close() throws {
        try pool.close()
    }

    private static let encoder = JSONEncoder()
    private static let decoder = JSONDecoder()
}
