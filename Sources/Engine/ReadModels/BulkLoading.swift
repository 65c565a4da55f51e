import GRDB

/// How the runner's connection folds a long backlog (a rebuild, a first start, a server that was
/// down a while): a page cache of 32 MB instead of SQLite's default 2 MB, and WAL checkpoints every
/// 80 MB instead of every 40 MB (`ReadDatabase.walCheckpointPages`), so a page changed by many
/// batches is copied into the file once. The 1 M-event rebuild went from 33.5 s to 23 s with both
/// (then against checkpoints every 4 MB), with a 128 MB cache (BENCHMARKS.md); 32 MB
/// keeps a replay while serving under the 150 MB a server may hold (`nuvie-bench memory`).
/// Durability is the same (`synchronous` and `secure_delete` are untouched). The connection's own
/// settings are restored after, and the cache's memory returned.
enum BulkLoading {
    /// The backlog from which a catch-up loads in bulk.
    static let backlog: UInt64 = 50_000
    static let cacheKibibytes = 32_768
    static let checkpointPages = 20_000

    /// `emptied`: projections whose tables are empty (nothing folded yet): their `indexesForReads`
    /// are built once at the end instead of on every insert, after the connection has its own page
    /// cache back: SQLite sorts an index's keys in as much memory as the page cache may hold, so
    /// built with 32 MB of both a replay beside reads peaked at 153 MB instead of 145 MB.
    static func during<T>(_ writer: any DatabaseWriter, emptied: [any ReadModelSchema] = [], _ body: () throws -> T) throws -> T {
        try deferringIndexes(emptied.flatMap(\.indexesForReads), in: writer) { try widened(writer, body) }
    }

    private static func widened<T>(_ writer: any DatabaseWriter, _ body: () throws -> T) throws -> T {
        let saved = try writer.writeWithoutTransaction { db in
            let saved = (
                cache: try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000,
                checkpoint: try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? ReadDatabase.walCheckpointPages
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

    /// Where the indexes being deferred are written down, in the transaction that drops them, so a
    /// process that stops before building them again builds them when it next opens the file.
    private static let deferredIndexes = "bulkLoadingDeferredIndex"

    /// Drops `names`, runs `body`, then creates them again from their own SQL: the 1 M-event rebuild
    /// took 23 s instead of 32 s with Nuvie's rating and activity indexes built after the fold
    /// (BENCHMARKS.md). Reads meanwhile are answered by scans.
    static func deferringIndexes<T>(_ names: [String], in writer: any DatabaseWriter, _ body: () throws -> T) throws -> T {
        guard !names.isEmpty else { return try body() }
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE \(deferredIndexes) (name TEXT PRIMARY KEY, sql TEXT NOT NULL)")
            for name in names {
                try db.execute(sql: "INSERT INTO \(deferredIndexes) SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name = ?", arguments: [name])
                guard db.changesCount == 1 else { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no index named \(name) to defer") }
                try db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
            }
        }
        let result: T
        do { result = try body() } catch {
            try? createDeferredIndexes(writer)
            throw error
        }
        try createDeferredIndexes(writer)
        return result
    }

    /// Builds what a deferral left unbuilt, if anything: when the read models open, before their
    /// migrations, so the schema is the one the indexes were dropped from.
    static func createDeferredIndexes(_ writer: any DatabaseWriter) throws {
        try writer.write { db in
            guard try db.tableExists(deferredIndexes) else { return }
            for sql in try String.fetchAll(db, sql: "SELECT sql FROM \(deferredIndexes)") { try db.execute(sql: sql) }
            try db.drop(table: deferredIndexes)
        }
    }
}
