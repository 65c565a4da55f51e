import EventLog
import Foundation
import Logging
import ProductHosting
import ReadModels
import SavryDomain
import SavryProjections
import TestSupport
import Testing

/// A recorded Savry log (`replay-fixtures/savry-recipes.jsonl`) and the read model it must fold into:
/// creates sharing one recorded time, an edit recorded before the previous event (a clock that went
/// back), a cleared field, a delete, two owners, and a third who writes a recipe and erases their
/// account. A change of the fold that alters a row fails here; `SAVRY_RECORD_FIXTURES=1` writes the
/// rows instead, for review.
///
/// The log was recorded before personal fields were sealed: its payloads are in clear and its
/// identity streams named after their subject, as a Savry log written before sealing is. It reads as
/// such a log does, and `savry seal-log` upgrades it.
@Suite(.timeLimit(.minutes(3))) struct SavryReplayFixtureTests {
    static let expected = replayFixtures.appendingPathComponent("savry-recipes.expected.json")

    /// Appends the recorded events to `storage`'s log as they were recorded (actor, stream, time).
    static func appendRecordedLog(to storage: SavryStorage) async throws -> Int {
        let lines = try String(contentsOf: replayFixtures.appendingPathComponent("savry-recipes.jsonl"), encoding: .utf8).split(separator: "\n")
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let event = NewEvent(
                type: try #require(object["type"] as? String), schemaVersion: UInt16(try #require(object["schema_version"] as? Int)),
                actorUserId: (object["actor_user_id"] as? Int).map(Int64.init),
                recordedAt: try Date(try #require(object["recorded_at"] as? String), strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
                payload: try JSONSerialization.data(withJSONObject: try #require(object["payload"]), options: [.sortedKeys])
            )
            _ = try await storage.log.append(to: try #require(object["stream"] as? String), expectedVersion: .any, events: [event])
        }
        return lines.count
    }

    @Test func replayingTheRecordedLogProducesTheRecordedReadModel() async throws {
        let storage = try await SavryStorage()
        _ = try await Self.appendRecordedLog(to: storage)
        // Folded as it was recorded: the third cook's recipe is read, then dropped by her erasure.
        try storage.runner.catchUp()
        let rows = try storage.database.canonicalDump()
        #expect(!rows.contains("Chloe") && !rows.contains(#""userId" : 3"#))
        storage.close()

        // Opened again, the key store learns of the erasure the log records (as one restored from a
        // backup older than the erasure does), and a fold from position 0 leaves the same rows.
        let reopened = try await SavryStorage(directory: storage.directory)
        #expect(try reopened.stores.keys.isDestroyed(3))
        #expect(try reopened.refold() == rows)
        #expect(try reopened.commands.existingUser(SavryIdentity(provider: .dev, subject: "ana"))?.userId == 1)
        #expect(try reopened.commands.existingUser(SavryIdentity(provider: .dev, subject: "chloe")) == nil, "an erased user holds no identity")

        if ProcessInfo.processInfo.environment["SAVRY_RECORD_FIXTURES"] == "1" {
            try Data((rows + "\n").utf8).write(to: Self.expected)
            return
        }
        #expect(rows == (try String(contentsOf: Self.expected, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The operator's audit shows no personal field of a log written in clear either (ops/privacy.md:
    /// "Audits never show them").
    @Test func theAuditOfTheRecordedLogShowsNoRecipeOrSubject() async throws {
        let storage = try await SavryStorage()
        _ = try await Self.appendRecordedLog(to: storage)
        let audit = AuditTrail(log: storage.log, catalog: SavryProduct.Catalog.self)
        let shown = try audit.events(from: 1, limit: 100).map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(shown.count == 16)
        #expect(!shown.contains { $0.contains("\"subject\"") }, "a subject in clear is withheld")
        #expect(!shown.contains { $0.contains("Chicken Stir Fry") || $0.contains("\"fields\"") || $0.contains("\"changes\"") }, "\(shown)")
    }

    /// `savry seal-log`: the recorded log, upgraded, keeps every position and row, and holds none of
    /// its recipes or subjects in clear.
    @Test func sealingTheRecordedLogKeepsItsRowsAndLeavesNothingPersonalInClear() async throws {
        let storage = try await SavryStorage()
        let count = try await Self.appendRecordedLog(to: storage)
        storage.close()
        let old = try await SavryStorage(directory: storage.directory)
        let inClear = ["Chicken Stir Fry", "Cut chicken", "Chloe's Secret Tart", "Poach the quince", "identity-dev-ana"]
        for text in inClear { #expect(try old.logFileHolds(text), "\(text) is in clear before sealing") }
        old.close()

        let elsewhere = try TemporaryDirectory()
        let report = try await LogSealing.run(
            SavryProduct.self, from: DataDirectory(storage.directory), into: elsewhere.url.appendingPathComponent("sealed"),
            masterKey: SavryStorage.masterKey, scratch: elsewhere.url, logger: Logger(label: "test")
        )
        #expect(report.isIdentical && report.events == UInt64(count) && report.renamedStreams == 3, "\(report)")

        let sealed = try await SavryStorage(directory: elsewhere.url.appendingPathComponent("sealed"))
        for text in inClear { #expect(try !sealed.logFileHolds(text), "\(text) is sealed") }
        try sealed.runner.catchUp()
        #expect(try sealed.database.canonicalDump() == (try String(contentsOf: Self.expected, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(try sealed.commands.existingUser(SavryIdentity(provider: .dev, subject: "ben"))?.userId == 2)
        let again = try await sealed.commands.signIn(SavryIdentity(provider: .dev, subject: "ana"))
        #expect(again.userId == 1 && !again.isNewUser)
    }
}
