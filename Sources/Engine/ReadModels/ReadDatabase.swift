import EventLog
import Foundation
import GRDB
import NIOConcurrencyHelpers

/// The SQLite file that holds every read model: a WAL-mode `DatabasePool`, one writer (the
/// projection runner), many readers. Its schema is migrated when it opens. A rebuild can replace
/// the file it serves from (`adopt`) while requests go on.
public final class ReadDatabase: Sendable {
    private let current: NIOLockedValueBox<Generation>
    public let projections: [any ReadModelSchema]
    let projectionNames: Set<String>
    /// Set when opened from a data directory's read-model files: rebuilds then swap generations.
    let files: ReadModelFiles?

    private struct Generation {
        var pool: any DatabaseWriter
        var path: String
        /// nil in memory, where only the pool's own connection sees the data.
        var readers: ReadConnections?
    }

    /// The current generation's writer: the runner's, and a product's own in-memory folds.
    public var pool: any DatabaseWriter { current.withLockedValue { $0.pool } }
    public var path: String { current.withLockedValue { $0.path } }

    /// The current generation in `directory` (see `ReadModelFiles`), after removing stale ones.
    public convenience init(directory: URL, projections: [any ReadModelSchema]) throws {
        let files = ReadModelFiles(directory: directory)
        try files.requireReadablePointer()
        files.removeStaleGenerations()
        try self.init(path: files.currentPath, projections: projections, files: files)
    }

    public convenience init(path: String, projections: [any ReadModelSchema]) throws {
        try self.init(path: path, projections: projections, files: nil)
    }

    /// A throwaway read database in memory (one user's time travel), with only `projections`.
    /// Its tables are created directly, in one transaction, without the migrator's bookkeeping.
    public static func inMemory(projections: [any ReadModelSchema]) throws -> ReadDatabase {
        let queue = try DatabaseQueue(configuration: configuration)
        try queue.write { db in
            try Checkpoint.createTable(db)
            for projection in projections { try reset(projection, db) }
        }
        return ReadDatabase(generation: Generation(pool: queue, path: ":memory:", readers: nil), projections: projections, files: nil)
    }

    private convenience init(path: String, projections: [any ReadModelSchema], files: ReadModelFiles?) throws {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true
        )
        let pool = try StorageFullError.mappingSQLite(store: .readModels, path: path) {
            PrivateSQLiteFile.prepare(path)
            let pool = try DatabasePool(path: path, configuration: Self.configuration)
            try BulkLoading.createDeferredIndexes(pool)
            try Self.migrator(projections).migrate(pool)
            try Self.resetProjectionsOfOtherVersions(projections, in: pool)
            return pool
        }
        self.init(generation: Generation(pool: pool, path: path, readers: ReadConnections(path: path)), projections: projections, files: files)
    }

    private init(generation: Generation, projections: [any ReadModelSchema], files: ReadModelFiles?) {
        self.projections = projections
        projectionNames = Set(projections.map(\.name))
        self.files = files
        current = NIOLockedValueBox(generation)
    }

    /// Runs `body`, which should be one statement (it gets no transaction), on a read-only
    /// connection of the current generation: the cheapest read there is, for request paths.
    public func statement<T>(_ body: (Database) throws -> T) throws -> T {
        let (pool, readers) = current.withLockedValue { ($0.pool, $0.readers) }
        guard let readers else { return try pool.unsafeRead(body) }
        do {
            return try readers.read(body)
        } catch is ReadConnections.Retired {
            try expectRetired(readers)
            return try statement(body)
        }
    }

    /// Runs `body` in one read transaction on a read-only connection of the current generation, so
    /// its statements see one state of the read models.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        let (pool, readers) = current.withLockedValue { ($0.pool, $0.readers) }
        guard let readers else { return try pool.read(body) }
        do {
            return try transaction(on: readers, body)
        } catch is ReadConnections.Retired {
            try expectRetired(readers)
            return try read(body)
        }
    }

    /// Returns when `readers` belong to a generation a rebuild replaced, so the read goes to the
    /// current one; throws when the database itself is closed.
    private func expectRetired(_ readers: ReadConnections) throws {
        guard current.withLockedValue({ $0.readers !== readers }) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the read database is closed")
        }
    }

    private func transaction<T>(on readers: ReadConnections, _ body: (Database) throws -> T) throws -> T {
        try readers.read { db in
            try db.beginTransaction(.deferred)
            do {
                let value = try body(db)
                try db.commit()
                return value
            } catch {
                try? db.rollback()
                throw error
            }
        }
    }

    static let walCheckpointPages = 10_000

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.maximumReaderCount = 8
        configuration.prepareDatabase { db in
            // The log is the truth: losing the last commits on power loss loses the checkpoint with
            // them, and the runner refolds those events. So the read side need not fsync every commit.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Read models hold personal data decrypted: a row an erasure deletes is overwritten with
            // zeros, not left readable in a free page of the file.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            // Folds commit small transactions that rewrite the same pages (checkpoints, indexes):
            // copied into the file every 40 MB of WAL rather than SQLite's 4 MB, each page is copied
            // and synced a tenth as often, and the fold waits on fewer syncs (BENCHMARKS.md). An
            // erasure still empties the WAL (`truncateWAL`).
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(walCheckpointPages)")
        }
        return configuration
    }

    /// Each projection version is one frozen migration: it drops whatever tables an older version
    /// left, creates the current ones, and puts the projection's checkpoint back to the start.
    static func migrator(_ projections: [any ReadModelSchema]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("projectionCheckpoint.v1") { db in
            try Checkpoint.createTable(db)
        }
        for projection in projections {
            migrator.registerMigration(projection.migrationIdentifier) { db in try reset(projection, db) }
        }
        return migrator
    }

    /// A projection whose checkpoint names another version than this build's was folded by another
    /// build: a newer one, whose tables this build does not know, or this one's after a newer build
    /// ran (its migration is recorded, so the migrator does not run it again). Either way its rows
    /// are not this build's fold of the log: they are dropped and folded again.
    static func resetProjectionsOfOtherVersions(_ projections: [any ReadModelSchema], in pool: any DatabaseWriter) throws {
        try pool.write { db in
            let versions = Dictionary(try Checkpoint.all(db).map { ($0.name, $0.version) }) { first, _ in first }
            for projection in projections where versions[projection.name].map({ $0 != projection.version }) ?? false {
                try reset(projection, db)
            }
        }
    }

    /// Drops whatever tables the projection has, creates them empty and puts its checkpoint at 0.
    static func reset(_ projection: any ReadModelSchema, _ db: Database) throws {
        for table in projection.tables { try db.drop(table: table, ifExists: true) }
        try projection.createSchema(db)
        try Checkpoint(name: projection.name, version: projection.version, position: 0).upsert(db)
    }

    /// Serves from `rebuilt`'s file from now on; it becomes the current generation. The old file is
    /// deleted with its WAL at once (reads already running finish on it): it holds personal values
    /// in clear, and an erasure after the swap reaches only the current generation.
    func adopt(_ rebuilt: ReadDatabase) throws {
        let generation = rebuilt.current.withLockedValue { $0 }
        _ = try generation.pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try files?.promote(generation.path)
        let retired = current.withLockedValue { current in
            defer { current = generation }
            return current
        }
        if let files { Self.remove(retired, from: files) }
    }

    /// Deletes `generation`'s files now. Reads under way finish on their open descriptors, and the
    /// last of its connections to close frees the space: no name in the directory leads to its
    /// contents any more. Nothing opens it again: its read-only connections refuse (`Retired`).
    private static func remove(_ generation: Generation, from files: ReadModelFiles) {
        try? generation.readers?.close()
        files.remove(generationAt: generation.path)
    }

    /// The checkpoints of this build's projections (`Checkpoint.all(_:of:)`).
    func checkpoints() throws -> [Checkpoint] {
        try pool.read { try Checkpoint.all($0, of: projectionNames) }
    }

    /// Copies what the WAL holds into the file as far as readers allow, without waiting for them.
    func checkpointPassively() throws {
        _ = try pool.writeWithoutTransaction { try $0.checkpoint(.passive) }
    }

    /// Checkpoints the WAL into the file and truncates it, so no page image older than the file's
    /// (a row since deleted, say) is left in it. Throws when readers hold it off past the busy timeout.
    public func truncateWAL() async throws {
        _ = try await pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }

    /// `truncateWAL`, on the calling thread.
    func truncateWALNow() throws {
        _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }

    /// Closes the pool's connections and the read-only ones. Later reads fail.
    public func close() throws {
        let (pool, readers) = current.withLockedValue { ($0.pool, $0.readers) }
        try readers?.close()
        try pool.close()
    }
}

private extension Database {
    func drop(table: String, ifExists: Bool) throws {
        try execute(sql: "DROP TABLE IF EXISTS \(table.quotedDatabaseIdentifier)")
    }
}
