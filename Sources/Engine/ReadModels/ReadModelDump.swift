import Foundation
import GRDB

extension ReadDatabase {
    /// Every row of every projection table as canonical JSON (sorted keys, rows in rowid order):
    /// two read databases folded from the same log dump to the same text.
    public func canonicalDump() throws -> String {
        try pool.read { db in try Self.encode(try Self.rows(db, tables: projections.flatMap(\.tables))) }
    }

    /// Each projection table's rows as canonical JSON, by table name.
    public func tableDumps() throws -> [String: String] {
        try pool.read { db in try Self.tableDumps(db, tables: projections.flatMap(\.tables)) }
    }

    /// The same, from a read-model file another process may be serving: opened read-only, nothing migrated;
    /// with the positions of these projections but those stopped by an event they could not apply
    /// (all of them when every one is: an event none could read stops them together).
    public static func tableDumps(
        ofFileAt path: String, projections: [any ReadModelSchema]
    ) throws -> (dumps: [String: String], checkpoints: [String: UInt64], stopped: [String]) {
        try readOnly(path) { db in
            let known = try Checkpoint.all(db, of: Set(projections.map(\.name)))
            let healthy = known.filter { $0.failedPosition == nil }
            let stopped = known.compactMap(\.stopped)
            let positions = (healthy.isEmpty ? known : healthy).reduce(into: [String: UInt64]()) { $0[$1.name] = UInt64($1.position) }
            return (try tableDumps(db, tables: projections.flatMap(\.tables)), positions, stopped)
        }
    }

    private static func readOnly<T>(_ path: String, _ read: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(read)
    }

    /// An online copy of a read-model file (SQLite's backup API) into `destination`, while it is being written.
    public static func backup(fileAt path: String, to destination: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let source = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? source.close() }
        // Made private before SQLite creates it with the umask's mode: it holds personal data in clear.
        PrivateSQLiteFile.prepare(destination)
        let copy = try DatabaseQueue(path: destination)
        defer { try? copy.close() }
        try source.backup(to: copy)
    }

    private static func tableDumps(_ db: Database, tables: [String]) throws -> [String: String] {
        try rows(db, tables: tables).mapValues { try encode($0) }
    }

    private static func rows(_ db: Database, tables: [String]) throws -> [String: [[String: Cell]]] {
        var dumped: [String: [[String: Cell]]] = [:]
        for table in tables {
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY rowid")
            dumped[table] = rows.map { row in
                Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, Cell(row[$0] as DatabaseValue)) })
            }
        }
        return dumped
    }

    private static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A SQLite value as JSON.
private enum Cell: Encodable {
    case null, integer(Int64), real(Double), text(String)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let v): self = .integer(v)
        case .double(let v): self = .real(v)
        case .string(let v): self = .text(v)
        case .blob(let v): self = .text(v.base64EncodedString())
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .integer(let v): try container.encode(v)
        case .real(let v): try container.encode(v)
        case .text(let v): try container.encode(v)
        }
    }
}
