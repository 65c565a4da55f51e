import ReadModels
import Foundation
import GRDB
@testable import NuvieProjections
import Testing

/// A projection version's schema is frozen: its migration is registered under `name.vN` and runs
/// once per database, so changing `createSchema` without bumping the version would leave existing
/// read models on the old tables. Each version's schema is kept in `Schemas/name.vN.sql`; a change
/// without a new version fails here. A new version: run once with `NUVIE_RECORD_SCHEMAS=1` and commit
/// the new file beside the old ones.
@Suite struct ProjectionSchemaTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schemas")

    @Test(arguments: NuvieReadModels.all.map(\.name))
    func eachProjectionVersionKeepsItsRecordedSchema(name: String) throws {
        let projection = try #require(NuvieReadModels.all.first { $0.name == name })
        let schema = try Self.schema(of: projection)
        let file = Self.directory.appendingPathComponent("\(projection.name).v\(projection.version).sql")
        if ProcessInfo.processInfo.environment["NUVIE_RECORD_SCHEMAS"] == "1", !FileManager.default.fileExists(atPath: file.path) {
            try Data(schema.utf8).write(to: file)
        }
        let recorded = try? String(contentsOf: file, encoding: .utf8)
        #expect(recorded != nil, "no recorded schema for \(projection.name) v\(projection.version): a new version records it with NUVIE_RECORD_SCHEMAS=1")
        if let recorded {
            #expect(recorded == schema, "\(projection.name) v\(projection.version) changed its schema without a new version")
        }
    }

    /// The SQL of every table, index and trigger the projection owns, in name order.
    static func schema(of projection: any Projection) throws -> String {
        let queue = try DatabaseQueue()
        try queue.write { db in try projection.createSchema(db) }
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name")
                .joined(separator: ";\n") + ";\n"
        }
    }
}
