import EventLog
import Foundation
import Logging
import Projections

/// Read models as they were: folded from the log's first `position` events into a separate file.
public enum TimeTravel {
    /// The last position of the longest log prefix recorded at or before `time`: the state the
    /// system was in at that instant (0 when nothing was recorded yet).
    public static func position(atOrBefore time: Date, in log: EventLog) throws -> UInt64 {
        var position: UInt64 = 0
        while true {
            let batch = try log.read(from: position + 1, limit: 10_000)
            guard !batch.isEmpty else { return position }
            for event in batch {
                guard event.recordedAt <= time else { return position }
                position = event.position
            }
        }
    }

    /// Folds the log up to and including `position` into a new read database at `path`.
    public static func readModels(of log: EventLog, upTo position: UInt64, at path: String, logger: Logger = Logger(label: "nuvie.as-of")) throws -> ReadDatabase {
        let database = try ReadDatabase(path: path)
        try ProjectionRunner(log: log, database: database, logger: logger).catchUp(until: position)
        return database
    }
}
