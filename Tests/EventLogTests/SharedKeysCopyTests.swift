import Foundation
import NIOConcurrencyHelpers
import PersonalData
import PostgresLog
import Testing
import TestSupport

/// Each node's key store is a copy of the one in PostgreSQL: what a node is told when it copies an
/// erasure made through another node.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct SharedKeysCopyTests {
    @Test func anErasureCopiedFromAnotherNodeIsOneDestructionHereWhateverIsRecordedOfItLater() async throws {
        let log = try await PostgresSharedLog(url: try await TestPostgres.newDatabase(), product: "test", operationTimeout: .seconds(60))
        defer { log.close() }
        let shared = PostgresSharedKeys(log: log)
        let directory = try TemporaryDirectory()
        let masterKey = try MasterKey(base64: Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(), source: "test")
        let copies = try ["erasing", "copying"].map { node in
            try KeyStore(path: directory.url.appendingPathComponent("\(node)/keys.sqlite").path, masterKey: masterKey, shared: shared)
        }
        defer { for copy in copies { try? copy.close() } }
        let (erasing, copying) = (copies[0], copies[1])
        let told = NIOLockedValueBox<[String: [KeyDestruction]]>([:])
        for (node, copy) in [("erasing", erasing), ("copying", copying)] {
            try await copy.joinShared()
            copy.onKeysDestroyed { destruction in told.withLockedValue { $0[node, default: []].append(destruction) } }
        }

        try await erasing.prepareKeys(for: [7])
        try await copying.copyShared()
        #expect(try copying.key(for: 7, creating: false) != nil)

        try await erasing.applyErasuresEverywhere([.init(userId: 7, position: nil)])
        try await copying.copyShared()
        // Where the log holds the erasure, recorded once its event is appended: a change to the shared store, not another destruction.
        try await erasing.recordErasurePositionsEverywhere([.init(userId: 7, position: 12)])
        let recorded = try await shared.changes(after: 0).last
        #expect(recorded?.userId == 7 && recorded?.key == .destroyed(position: 12))
        try await copying.copyShared()
        try await erasing.copyShared()

        #expect(try copying.key(for: 7, creating: false) == nil)
        let (byEraser, byCopier) = told.withLockedValue { ($0["erasing"] ?? [], $0["copying"] ?? []) }
        #expect(byEraser.map(\.userIds) == [[7]] && byEraser.map(\.copiedFromShared) == [false])
        #expect(byCopier.map(\.userIds) == [[7]] && byCopier.map(\.copiedFromShared) == [true])
        #expect(copying.destructions == 1 && erasing.destructions == 1)
    }
}
