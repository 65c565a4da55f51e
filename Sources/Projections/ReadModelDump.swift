import Foundation
import GRDB

extension ReadDatabase {
    /// Every row of every projection table as canonical JSON (sorted keys, rows in rowid order):
    /// two read databases folded from the same log dump to the same text.
    public func canonicalDump() throws -> String {
        try pool.read { db in
            var tables: [String: [[String: Cell]]] = [:]
            for table in projections.flatMap(\.tables) {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY rowid")
                tables[table] = rows.map { row in
                    Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, Cell(row[$0] as DatabaseValue)) })
                }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(tables), as: UTF8.self)
        }
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
