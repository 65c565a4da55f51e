import EventLog
import EventSourcing
import Foundation
import Logging
import ReadModels
import SavryCommands
import SavryDomain
import SavryProjections
import TestSupport

/// A real event log and a real read database in a temp dir, with Savry's runner over them.
final class SavryStorage: Sendable {
    let directory: TemporaryDirectory
    let log: EventLog
    let database: ReadDatabase
    let runner: SavryRunner
    let commands: SavryCommandService

    init() throws {
        directory = try TemporaryDirectory()
        log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent("log"), initialMapSize: 4 << 20))
        database = try ReadDatabase(path: directory.url.appendingPathComponent("read/read.sqlite").path, projections: SavryReadModels.all)
        runner = try SavryRunner(log: log, database: database, projections: SavryReadModels.all, batchSize: 3, logger: Logger(label: "test"))
        commands = SavryCommandService(log: log)
    }

    deinit {
        log.close()
        try? database.close()
    }

    /// Appends `event` to `stream` as recorded at `at`, whatever the stream holds.
    @discardableResult
    func append(_ event: SavryEvent, to stream: String, at: Date? = nil) async throws -> UInt64 {
        try await log.append(to: stream, expectedVersion: .any, events: [try SavryCatalog.newEvent(event, recordedAt: at)]).lastPosition
    }

    /// Every event after `position`, decoded.
    func events(after position: UInt64) throws -> [SavryEvent] {
        try log.read(from: position + 1, limit: .max).map { try SavryCatalog.decode($0).event }
    }

    /// The same log folded from position 0 into a fresh read database: its canonical dump.
    func refold() throws -> String {
        let path = directory.url.appendingPathComponent("refold-\(UUID().uuidString)/read.sqlite").path
        let fresh = try ReadDatabase(path: path, projections: SavryReadModels.all)
        defer { try? fresh.close() }
        try SavryRunner(log: log, database: fresh, projections: SavryReadModels.all, logger: Logger(label: "test")).catchUp()
        return try fresh.canonicalDump()
    }
}
