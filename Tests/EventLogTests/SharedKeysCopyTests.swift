import EventLog
import Foundation
import Logging
import NIOConcurrencyHelpers
import PersonalData
import PostgresLog
import PostgresNIO
import Testing
import TestSupport

/// Each node's key store is a copy of the one in PostgreSQL: what a node is told when it copies an
/// erasure made through another node.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct SharedKeysCopyTests {
    /// A node's copy goes a page at a time, each kept before the next is asked for, and takes everything:
    /// a new node's first copy of a large store was one query that had to fetch every key in one deadline.
    @Test func aCopyGoesAPageAtATimeAndTakesEveryChange() async throws {
        let nodes = try await SharedKeyNodes(["writing", "joining"])
        defer { nodes.close() }
        let (shared, writing, joining) = (nodes.shared, nodes.copies[0], nodes.copies[1])
        try await writing.joinShared()
        try await writing.prepareKeys(for: Set(1...7))
        try await writing.applyErasuresEverywhere([.init(userId: 3, position: nil)])
        #expect(try await shared.changes(after: 0, limit: 2).changes.map(\.sequence) == [1, 2])

        try await joining.copyShared(pageSize: 2)
        for userId in [1, 2, 4, 5, 6, 7] as [Int64] { #expect(try joining.key(for: userId, creating: false) != nil, "user \(userId)") }
        #expect(try joining.isDestroyed(3))
    }

    @Test func anErasureCopiedFromAnotherNodeIsOneDestructionHereWhateverIsRecordedOfItLater() async throws {
        let nodes = try await SharedKeyNodes(["erasing", "copying"])
        defer { nodes.close() }
        let (shared, erasing, copying) = (nodes.shared, nodes.copies[0], nodes.copies[1])
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
        let recorded = try await shared.changes(after: 0, limit: 1_000).changes.last
        #expect(recorded?.userId == 7 && recorded?.key == .destroyed(position: 12))
        try await copying.copyShared()
        try await erasing.copyShared()

        #expect(try copying.key(for: 7, creating: false) == nil)
        let (byEraser, byCopier) = told.withLockedValue { ($0["erasing"] ?? [], $0["copying"] ?? []) }
        #expect(byEraser.map(\.userIds) == [[7]] && byEraser.map(\.copiedFromShared) == [false])
        #expect(byCopier.map(\.userIds) == [[7]] && byCopier.map(\.copiedFromShared) == [true])
        #expect(copying.destructions == 1 && erasing.destructions == 1)
    }

    /// A standby promoted without the last key change gives that change's sequence to the next one.
    /// A node that copied the lost change finds it at its next copy, where it used to copy on from the
    /// sequence and skip the new change for good; a node holding a key the store gave again finds that.
    @Test func aCopyFindsAKeyChangeTheSharedStoreLostAndGaveAgain() async throws {
        let url = try await TestPostgres.newDatabase()
        let log = try await PostgresSharedLog(url: url, product: "test", operationTimeout: .seconds(60))
        defer { log.close() }
        let shared = PostgresSharedKeys(log: log)
        let directory = try TemporaryDirectory()
        let masterKey = try MasterKey(base64: Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(), source: "test")
        let copies = try ["claiming", "copying", "promoted"].map { node in
            try KeyStore(path: directory.url.appendingPathComponent("\(node)/keys.sqlite").path, masterKey: masterKey, shared: shared)
        }
        defer { for copy in copies { try? copy.close() } }
        let (claiming, copying, promoted) = (copies[0], copies[1], copies[2])
        for copy in copies { try await copy.joinShared() }
        try await claiming.prepareKeys(for: [7])
        try await claiming.prepareKeys(for: [8])
        try await copying.copyShared()
        let lost = try #require(try await shared.changes(after: 0, limit: 1_000).changes.last)
        #expect(lost.userId == 8)

        // What a standby promoted without the last change holds; then another node's claims.
        let client = PostgresClient(configuration: try PostgresLogLocation(url: url).firstServerConfiguration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await client.query("DELETE FROM data_key WHERE user_id = 8", logger: Logger(label: "lost-commit"))
            try await client.query("DELETE FROM data_key_change WHERE user_id = 8", logger: Logger(label: "lost-commit"))
        }
        try await promoted.prepareKeys(for: [9])
        try await promoted.prepareKeys(for: [8])
        #expect(try await shared.changes(after: 0, limit: 1_000).changes.first { $0.userId == 9 }?.sequence == lost.sequence, "the lost sequence given again")

        let copied = await #expect(throws: EventLogError.self) { try await copying.copyShared() }
        #expect(copied?.description.contains("no longer holds the change \(lost.sequence) (user 8's key)") == true, "\(String(describing: copied))")
        let held = await #expect(throws: EventLogError.self) { try await claiming.copyShared() }
        #expect(held?.description.contains("another key for user 8 than this node holds") == true, "\(String(describing: held))")
    }
}

/// Key-store copies of one shared store, each as a node holds it, under one master key.
private struct SharedKeyNodes {
    let log: PostgresSharedLog
    let shared: PostgresSharedKeys
    let directory: TemporaryDirectory
    let copies: [KeyStore]

    init(_ nodes: [String]) async throws {
        let log = try await PostgresSharedLog(url: try await TestPostgres.newDatabase(), product: "test", operationTimeout: .seconds(60))
        let (shared, directory) = (PostgresSharedKeys(log: log), try TemporaryDirectory())
        let masterKey = try MasterKey(base64: Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(), source: "test")
        copies = try nodes.map { node in
            try KeyStore(path: directory.url.appendingPathComponent("\(node)/keys.sqlite").path, masterKey: masterKey, shared: shared)
        }
        (self.log, self.shared, self.directory) = (log, shared, directory)
    }

    func close() {
        for copy in copies { try? copy.close() }
        log.close()
    }
}
