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
