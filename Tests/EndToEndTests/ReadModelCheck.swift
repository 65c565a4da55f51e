import ReadModels
import EventLog
import Foundation
import Logging
import TestSupport
import NuvieProjections

/// Compares the read models a server serves with a clean fold of the same log. The reference is a
/// read database of the test's own that was never crashed: it folds the log from position 0 and,
/// at each later check, only the events added since (the same fold; a full rebuild from 0 each
/// cycle would grow with the log). Call it while the server is idle and caught up.
final class ReadModelCheck {
    private let dataDirectory: URL
    private let reference: ReadDatabase

    init(dataDirectory: URL, scratch: URL) throws {
        self.dataDirectory = dataDirectory
        reference = try ReadDatabase(path: scratch.appendingPathComponent("reference/read.sqlite").path)
    }

    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    /// Throws `Mismatch` naming the tables that differ, or the projections that are not aligned.
    func compare() throws {
        let readDirectory = dataDirectory.appendingPathComponent("read")
        let live = try ReadDatabase.tableDumps(ofFileAt: readDirectory.appendingPathComponent(ReadDirectoryState.current(readDirectory)).path, projections: Projections.all)
        guard Set(live.checkpoints.values).count == 1, let position = live.checkpoints.values.first else {
            throw Mismatch(description: "live projections not aligned: \(live.checkpoints)")
        }
        let log = try EventLog(configuration: .init(directory: dataDirectory.appendingPathComponent("log")))
        defer { log.close() }
        try ProjectionRunner(log: log, personalData: try demoKeyStore(of: dataDirectory), database: reference, logger: Logger(label: "crash-test"))
            .catchUp(until: position)
        let fresh = try reference.tableDumps()
        let differing = Set(fresh.keys).union(live.dumps.keys).filter { fresh[$0] != live.dumps[$0] }.sorted()
        guard differing.isEmpty else { throw Mismatch(description: "at position \(position) these tables differ from a clean fold: \(differing)") }
    }

    func close() {
        try? reference.close()
    }
}
