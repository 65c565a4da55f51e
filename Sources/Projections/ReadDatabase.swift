import Foundation
import GRDB

/// The SQLite file that holds every read model: a WAL-mode `DatabasePool`, one writer (the
/// projection runner), many readers. Its schema is migrated when it opens.
public final class ReadDatabase: Sendable {
    let pool: DatabasePool
    public let projections: [any Projection]
    public let path: String

    public init(path: String, projections: [any Projection] = Projections.all) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.maximumReaderCount = 8
        configuration.prepareDatabase { db in
            // The log is the truth: losing the last commits on power loss loses the checkpoint with
            // them, and the runner refolds those events. So the read side need not fsync every commit.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true
        )
        pool = try DatabasePool(path: path, configuration: configuration)
        self.projections = projections
        self.path = path
        try Self.migrator(projections).migrate(pool)
    }

    /// Each projection version is one frozen migration: it drops whatever tables an older version
    /// left, creates the current ones, and puts the projection's checkpoint back to the start.
    static func migrator(_ projections: [any Projection]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("projectionCheckpoint.v1") { db in
            try Checkpoint.createTable(db)
        }
        for projection in projections {
            migrator.registerMigration(projection.migrationIdentifier) { db in
                for table in projection.tables { try db.drop(table: table, ifExists: true) }
                try projection.createSchema(db)
                try Checkpoint(name: projection.name, version: projection.version, position: 0).upsert(db)
            }
        }
        return migrator
    }

    func checkpoints() throws -> [Checkpoint] {
        try pool.read { try Checkpoint.fetchAll($0) }
    }

    /// Closes the pool's connections. Later reads fail.
    public func close() throws {
        try pool.close()
    }
}

private extension Database {
    func drop(table: String, ifExists: Bool) throws {
        try execute(sql: "DROP TABLE IF EXISTS \(table.quotedDatabaseIdentifier)")
    }
}
