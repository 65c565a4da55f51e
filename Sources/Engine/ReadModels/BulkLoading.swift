import GRDB

/// How the runner's connection folds a long backlog (a rebuild, a first start, a server that was
/// down a while): a page cache of 32 MB instead of SQLite's default 2 MB, and WAL checkpoints every
/// 80 MB instead of every 4 MB, so a page changed by many batches is copied into the file once. The
/// 1 M-event rebuild went from 33.5 s to 23 s with both, with a 128 MB cache (BENCHMARKS.md); 32 MB
/// keeps a replay while serving under the 150 MB a server may hold (`nuvie-bench memory`).
/// Durability is the same (`synchronous` and `secure_delete` are untouched). The connection's own
/// settings are restored after, and the cache's memory returned.
enum BulkLoading {
    /// The backlog from which a catch-up loads in bulk.
    static let backlog: UInt64 = 50_000
    static let cacheKibibytes = 32_768
    static let checkpointPages = 20_000

    static func during<T>(_ writer: any DatabaseWriter, _ body: () throws -> T) throws -> T {
        let saved = try writer.writeWithoutTransaction { db in
            let saved = (
                cache: try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000,
                checkpoint: try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 1000
            )
            try db.execute(sql: "PRAGMA cache_size = \(-cacheKibibytes)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)")
            return saved
        }
        defer {
            try? writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = \(saved.cache)")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(saved.checkpoint)")
                try db.execute(sql: "PRAGMA shrink_memory")
            }
        }
        return try body()
    }
}
