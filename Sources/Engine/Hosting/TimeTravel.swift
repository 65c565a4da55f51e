import EventLog
import EventSourcing
import Foundation
import Logging
import ReadModels

/// Read models as they were: folded from the log's first `position` events into a separate file.
/// Personal fields are opened with the live key store, never a copy of it: a user erased since
/// reads as erased in every past state too.
public enum TimeTravel {
    public enum TimeTravelError: Error, CustomStringConvertible {
        case notEmpty(String)

        public var description: String {
            switch self {
            case .notEmpty(let path): "\(path) already holds a log; time travel needs a new directory"
            }
        }
    }

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

    /// A data directory holding the state as of `position`: a copy of the log's first `position`
    /// events (same ids, times and positions) and read models folded from them, which a read-only
    /// server can serve.
    public static func dataDirectory<Product: EventSourcedProduct>(
        _ product: Product.Type, of log: EventLog, personalData: any PersonalDataCipher, upTo position: UInt64, at directory: URL,
        logger: Logger
    ) async throws {
        let paths = DataDirectory(directory)
        let copy = try EventLog(configuration: .init(directory: paths.log, initialMapSize: max(log.mapSize, 64 << 20)))
        defer { copy.close() }
        guard copy.headPosition == 0 else { throw TimeTravelError.notEmpty(directory.path) }
        while copy.headPosition < position {
            let batch = try log.read(from: copy.headPosition + 1, limit: Int(min(position - copy.headPosition, 10_000)))
            _ = try await copy.append(batch.map { recorded in
                StreamAppend(streamId: recorded.streamId, expectedVersion: .exact(recorded.streamVersion - 1), events: [NewEvent(
                    id: recorded.id, type: recorded.type, schemaVersion: recorded.schemaVersion, actorUserId: recorded.actorUserId,
                    userIds: recorded.userIds, recordedAt: recorded.recordedAt, payload: recorded.payload
                )])
            })
        }
        try Data("\(Product.name)\n".utf8).write(to: paths.productMarker, options: .atomic)
        let database = try ReadDatabase(directory: paths.read, projections: Product.projections)
        defer { try? database.close() }
        try ProjectionRunner<Product.Catalog>(
            log: copy, personalData: personalData, database: database, projections: Product.projections, batchSize: 5000, logger: logger
        ).catchUp()
    }

    /// Folds the log up to and including `position` into a new read database at `path`.
    public static func readModels<Product: EventSourcedProduct>(
        _ product: Product.Type, of log: EventLog, personalData: any PersonalDataCipher, upTo position: UInt64, at path: String,
        logger: Logger
    ) throws -> ReadDatabase {
        let database = try ReadDatabase(path: path, projections: Product.projections)
        try ProjectionRunner<Product.Catalog>(log: log, personalData: personalData, database: database, projections: Product.projections, logger: logger)
            .catchUp(until: position)
        return database
    }
}
