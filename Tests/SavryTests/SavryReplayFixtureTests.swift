import EventLog
import Foundation
import ReadModels
import TestSupport
import Testing

/// A recorded Savry log (`replay-fixtures/savry-recipes.jsonl`) and the read model it must fold into:
/// creates sharing one recorded time, an edit recorded before the previous event (a clock that went
/// back), a cleared field, a delete, two owners. A change of the fold that alters a row fails here;
/// `SAVRY_RECORD_FIXTURES=1` writes the rows instead, for review.
@Suite struct SavryReplayFixtureTests {
    @Test func replayingTheRecordedLogProducesTheRecordedReadModel() async throws {
        let storage = try SavryStorage()
        for line in try String(contentsOf: replayFixtures.appendingPathComponent("savry-recipes.jsonl"), encoding: .utf8).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let event = NewEvent(
                type: try #require(object["type"] as? String), schemaVersion: UInt16(try #require(object["schema_version"] as? Int)),
                recordedAt: try Date(try #require(object["recorded_at"] as? String), strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
                payload: try JSONSerialization.data(withJSONObject: try #require(object["payload"]), options: [.sortedKeys])
            )
            _ = try await storage.log.append(to: try #require(object["stream"] as? String), expectedVersion: .any, events: [event])
        }
        try storage.runner.catchUp()
        let rows = try storage.database.canonicalDump()
        #expect(try storage.refold() == rows)

        let expected = replayFixtures.appendingPathComponent("savry-recipes.expected.json")
        if ProcessInfo.processInfo.environment["SAVRY_RECORD_FIXTURES"] == "1" {
            try Data((rows + "\n").utf8).write(to: expected)
            return
        }
        #expect(rows == (try String(contentsOf: expected, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
