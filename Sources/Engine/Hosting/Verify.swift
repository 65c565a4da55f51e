import EventLog
import Foundation
import Logging
import PersonalData
import ReadModels

/// Rebuilds every projection from the log into a temporary read database and compares it, table by
/// table, with the live read models at the same log position: the one every projection not stopped by
/// an event it could not apply has reached (a stopped one stays behind; the rebuild stops it at the
/// same event). The rebuild opens personal fields with the live key store, so an erased user's fold
/// the same way in both.
public enum Verify {
    public struct Report: Sendable {
        public var position: UInt64
        public var tables: Int
        /// Tables whose rows differ from the rebuild.
        public var differences: [String]
        /// Projections of the live read models that could not apply an event: what they say, with where.
        public var stopped: [String]
        public var isIdentical: Bool { differences.isEmpty }
    }

    public enum Failure: Error, CustomStringConvertible {
        case projectionsNotAligned([String: UInt64])

        public var description: String {
            switch self {
            case .projectionsNotAligned(let checkpoints):
                "the live projections are at different positions (\(checkpoints.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))); let them catch up and retry"
            }
        }
    }

    public static func run<Product: EventSourcedProduct>(
        _ product: Product.Type, dataDirectory: URL, masterKey: MasterKey, scratch: URL, attempts: Int = 20
    ) async throws -> Report {
        let directory = DataDirectory(dataDirectory)
        var live = try ReadDatabase.tableDumps(ofFileAt: directory.readDatabasePath, projections: Product.projections)
        for _ in 1..<attempts where Set(live.checkpoints.values).count > 1 {
            try await Task.sleep(for: .milliseconds(250))
            live = try ReadDatabase.tableDumps(ofFileAt: directory.readDatabasePath, projections: Product.projections)
        }
        guard Set(live.checkpoints.values).count == 1, let position = live.checkpoints.values.first else {
            throw Failure.projectionsNotAligned(live.checkpoints)
        }
        let log = try EventLog(configuration: .init(directory: directory.log))
        defer { log.close() }
        let keys = try KeyStore(path: directory.keyStorePath, masterKey: masterKey)
        defer { try? keys.close() }
        let rebuilt = try ReadDatabase(path: scratch.appendingPathComponent("read.sqlite").path, projections: Product.projections)
        defer { try? rebuilt.close() }
        let runner = try ProjectionRunner<Product.Catalog>(
            log: log, personalData: KeyStoreCipher(keys: keys), database: rebuilt, projections: Product.projections, logger: Logger(label: "\(Product.name).verify")
        )
        try runner.catchUp(until: position)
        let fresh = try rebuilt.tableDumps()
        let differences = Set(fresh.keys).union(live.dumps.keys).filter { fresh[$0] != live.dumps[$0] }.sorted()
        // The live read models' own account: the rebuild, folded only to `position`, stops before their event.
        let stopped = live.stopped
        return Report(position: position, tables: fresh.count, differences: differences, stopped: stopped)
    }
}
