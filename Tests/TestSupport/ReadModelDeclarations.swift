import Foundation
import GRDB
import ReadModels

/// What a product's projections declare, against what they do: the tables each creates against its
/// `tables` list (which a rebuild drops and a version bump resets), and the projections its sources
/// define against the list its runner folds.
public enum ReadModelDeclarations {
    /// A line per projection whose `createSchema` makes other tables than its `tables` lists (the
    /// shadow tables SQLite keeps for a virtual table aside), or whose `indexesForReads` names an
    /// index it does not create. Empty when every list is true.
    public static func schemaMismatches(_ projections: [any ReadModelSchema]) throws -> [String] {
        try projections.flatMap { projection in
            let queue = try DatabaseQueue()
            try queue.write { try projection.createSchema($0) }
            let (tables, virtual, indexes) = try queue.read { db in
                (
                    try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"),
                    try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'"),
                    try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
                )
            }
            let created = tables.filter { table in !virtual.contains { table.hasPrefix($0 + "_") } }
            let declared = Set(projection.tables)
            let tableMismatch = created == declared ? [] : ["\(projection.name): creates \(created.sorted()), declares \(declared.sorted())"]
            let unknownIndexes = Set(projection.indexesForReads).subtracting(indexes).sorted()
            return tableMismatch + (unknownIndexes.isEmpty ? [] : ["\(projection.name): creates no index \(unknownIndexes)"])
        }
    }

    /// The projection types `Sources/Products/<product>/Projections` defines (`struct X: Projection`)
    /// that `folded`, the list the product's runner folds, leaves out; and any it lists twice.
    public static func unfolded(_ product: String, folded: [any ReadModelSchema]) throws -> [String] {
        let folder = repositoryRoot.appendingPathComponent("Sources/Products/\(product)/Projections")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let pattern = try Regex(#"struct (\w+): Projection\b"#)
        var defined: Set<String> = []
        for file in files where file.pathExtension == "swift" {
            for match in try String(contentsOf: file, encoding: .utf8).matches(of: pattern) {
                if let name = match.output[1].substring { defined.insert(String(name)) }
            }
        }
        let listed = folded.map { String(describing: type(of: $0)) }
        let twice = Dictionary(grouping: listed, by: { $0 }).filter { $0.value.count > 1 }.keys.map { "\($0) listed twice" }
        return defined.subtracting(listed).sorted().map { "\($0) is not folded" } + twice.sorted()
    }
}
