import ReadModels
import EventSourcing
import NuvieCommands
import NuvieDomain
import PersonalData
import EventLog
import Foundation
import TestSupport
import GRDB
import Logging
@testable import NuvieProjections

/// A real event log and a real read database in a temp dir, with the runner driven by hand.
final class ProjectionHarness {
    let directory: TemporaryDirectory
    let log: EventLog
    let keys: KeyStoreCipher
    let store: NuvieStore
    private(set) var database: ReadDatabase
    private(set) var runner: NuvieRunner
    let projections: [any Projection<NuvieEvent>]

    init(projections: [any Projection<NuvieEvent>] = NuvieReadModels.all, directory: TemporaryDirectory? = nil) throws {
        self.directory = try directory ?? TemporaryDirectory()
        self.projections = projections
        log = try EventLog(configuration: .init(directory: self.directory.url.appendingPathComponent("log"), initialMapSize: 4 << 20))
        keys = try testKeyStore(in: self.directory)
        store = NuvieStore(log: log, personalData: keys)
        database = try ReadDatabase(path: self.directory.url.appendingPathComponent("read/read.sqlite").path, projections: projections)
        runner = try NuvieRunner(log: log, personalData: keys, database: database, projections: projections, batchSize: 3, logger: Logger(label: "test"))
    }

    deinit {
        log.close()
        try? database.close()
    }

    /// Given these events (each appended to its own stream, at its own time)…
    func given(_ events: [(stream: String, event: NuvieEvent, at: Date)]) async throws {
        for (stream, event, at) in events {
            _ = try await log.append(to: stream, expectedVersion: .any, events: [try store.newEvent(event, recordedAt: at)])
        }
    }

    /// Appends a recorded JSON-lines log: `type`, `schema_version`, `stream`, `recorded_at`, `payload`.
    func given(jsonLines url: URL) async throws {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let recordedAt = try Date(try #require(object["recorded_at"] as? String), strategy: .iso8601)
            let payload = try JSONSerialization.data(withJSONObject: try #require(object["payload"]), options: [.sortedKeys])
            let type = try #require(object["type"] as? String), schemaVersion = UInt16(try #require(object["schema_version"] as? Int))
            // The lines do not say whose each event is; the payload does, as it did when it was recorded.
            let actor = try NuvieCatalog.decode(type: type, schemaVersion: schemaVersion, payload: payload, with: WithheldPersonalData().decoder(owner: 0)).actorUserId
            let event = NewEvent(type: type, schemaVersion: schemaVersion, actorUserId: actor, recordedAt: recordedAt, payload: payload)
            _ = try await log.append(to: try #require(object["stream"] as? String), expectedVersion: .any, events: [event])
        }
    }

    /// Simulates a crash: drops the database connections and runner, then opens them again.
    func restart() throws {
        try database.close()
        database = try ReadDatabase(path: directory.url.appendingPathComponent("read/read.sqlite").path, projections: projections)
        runner = try NuvieRunner(log: log, personalData: keys, database: database, projections: projections, batchSize: 3, logger: Logger(label: "test"))
    }

    /// …then the read model is: every row of every projection table, as canonical JSON.
    func readModel() throws -> String {
        try database.canonicalDump()
    }

    /// …and at position `position` it was: the same, folded from the first `position` events only
    /// into a separate file (time travel).
    func readModel(asOf position: UInt64) throws -> ReadDatabase {
        let path = directory.url.appendingPathComponent("as-of-\(position)/read.sqlite").path
        let past = try ReadDatabase(path: path, projections: projections)
        try NuvieRunner(log: log, personalData: keys, database: past, projections: projections, logger: Logger(label: "test")).catchUp(until: position)
        return past
    }
}

import Testing


/// Compares with the expected file, or writes it when `NUVIE_RECORD_FIXTURES=1`.
func expectMatchesFixture(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = replayFixtures.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["NUVIE_RECORD_FIXTURES"] == "1" {
        try Data((actual + "\n").utf8).write(to: url)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(actual == expected, sourceLocation: sourceLocation)
}
