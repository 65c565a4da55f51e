import GRDB

/// Where each projection is in the log. Written in the same transaction as the projection's rows.
struct Checkpoint: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "projectionCheckpoint"

    var name: String
    var version: Int
    var position: Int64
    /// Set when the projection could not apply the event after `position`; it stops there.
    var failedPosition: Int64?
    var failure: String?

    init(name: String, version: Int, position: Int64, failedPosition: Int64? = nil, failure: String? = nil) {
        self.name = name
        self.version = version
        self.position = position
        self.failedPosition = failedPosition
        self.failure = failure
    }

    /// Read by column position, not through `Decodable` nor by column name (GRDB looks a name up
    /// in each row): every fold batch reads them all. The columns are the table's, in its order.
    init(row: Row) throws {
        name = row[0]
        version = row[1]
        position = row[2]
        failedPosition = row[3]
        failure = row[4]
    }

    /// Every projection's, with the statement prepared once per connection: every fold batch reads them.
    static func all(_ db: Database) throws -> [Checkpoint] {
        try fetchAll(db.cachedStatement(sql: "SELECT name, version, position, failedPosition, failure FROM projectionCheckpoint"))
    }

    /// Those of the projections named. A row of one a build does not have (left by a later release
    /// rolled back) stays, so that release resumes it where it stopped, but holds nothing back here.
    static func all(_ db: Database, of names: Set<String>) throws -> [Checkpoint] {
        try all(db).filter { names.contains($0.name) }
    }

    /// What a projection stopped by an event it could not apply says, with where; nil while it folds.
    var stopped: String? {
        failedPosition.map { "\(name) could not apply the event at position \($0) (\(failure ?? "no reason recorded"))" }
    }

    /// Moves the projection's checkpoint to `position`, with the statement prepared once per
    /// connection: every fold batch moves each projection's.
    static func move(_ name: String, to position: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE projectionCheckpoint SET position = ? WHERE name = ?").execute(arguments: [position, name])
    }

    static func createTable(_ db: Database) throws {
        try db.create(table: databaseTableName) { t in
            t.primaryKey("name", .text)
            t.column("version", .integer).notNull()
            t.column("position", .integer).notNull()
            t.column("failedPosition", .integer)
            t.column("failure", .text)
        }
    }
}
