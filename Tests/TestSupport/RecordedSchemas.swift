import Foundation
import GRDB
import ReadModels

/// The schema each projection version creates, against the one recorded for it in `directory`
/// (`<name>.v<version>.sql`): a projection whose schema changes without a new version would leave
/// old read databases unmigrated. With `recordFlag` set to 1 in the environment, versions with no
/// recorded schema get theirs written, for review and commit. Returns the names of those that differ.
public func projectionsWithChangedSchemas(_ projections: [any ReadModelSchema], recordedIn directory: URL, recordFlag: String) throws -> [String] {
    try projections.compactMap { projection in
        let queue = try DatabaseQueue()
        try queue.write { db in try projection.createSchema(db) }
        let schema = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name")
                .joined(separator: ";\n") + ";\n"
        }
        let file = directory.appendingPathComponent("\(projection.name).v\(projection.version).sql")
        if ProcessInfo.processInfo.environment[recordFlag] == "1", !FileManager.default.fileExists(atPath: file.path) {
            try Data(schema.utf8).write(to: file)
        }
        return (try? String(contentsOf: file, encoding: .utf8)) == schema ? nil : "\(projection.name) v\(projection.version)"
    }
}
