import Foundation
import TestSupport
import Testing
@testable import EventLog

/// The index's commit comes after the log's durable one and can fail alone (its disk refuses
/// writes): the append stands, and no read through the index may miss it.
@Suite(.serialized) struct IndexCatchUpTests {
    @Test(.enabled(if: ImmutableFiles.areEnforced, "no immutable files here (needs root, chattr, and a filesystem such as ext4): test skipped"), .timeLimit(.minutes(2)))
    func aReadAfterAFailedIndexCommitCatchesTheIndexUpOrThrows() async throws {
        let directory = try TemporaryDirectory()
        let logDirectory = directory.url.appendingPathComponent("log")
        let log = try EventLog(configuration: .init(directory: logDirectory, initialMapSize: 1 << 20))
        defer { log.close() }
        let event = { NewEvent(type: "thing-happened", payload: Data(#"{"n":1}"#.utf8)) }
        _ = try await log.append(to: "things", expectedVersion: .noStream, events: [event()])
        let indexFile = [logDirectory.appendingPathComponent("index/data.mdb")]

        try ImmutableFiles.set(true, indexFile)
        let second = event()
        let acknowledged: AppendResult
        do {
            acknowledged = try await log.append(to: "things", expectedVersion: .exact(1), events: [second])
        } catch {
            try ImmutableFiles.set(false, indexFile)
            throw error
        }
        let whileRefused = Result { try log.readStream("things") }
        try ImmutableFiles.set(false, indexFile)

        #expect(acknowledged.positions == [2], "the log's commit was durable: the append stands")
        if case .success(let events) = whileRefused {
            Issue.record("a read through an index that misses an acknowledged event answered: \(events.map(\.position))")
        }
        #expect(try log.readStream("things").map(\.id).last == second.id)
        #expect(try log.streamVersion("things") == 2)
        #expect(try log.position(ofEvent: second.id) == 2)
    }
}
