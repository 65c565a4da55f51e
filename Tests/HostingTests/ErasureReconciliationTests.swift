import EventSourcing
import Foundation
import Logging
import PersonalData
import ProductHosting
import TestSupport
import Testing

/// The key store and the log agree on every open, before anything reads a personal field: the
/// engine's reconciliation, erasure and restore, on its test product.
@Suite(.timeLimit(.minutes(1))) struct ErasureReconciliationTests {
    let logger = Logger(label: "reconciliation-test")

    /// The stores of a tally data directory in `directory`, under a master key kept beside it.
    func open(_ directory: TemporaryDirectory, _ name: String = "data", logURL: String? = nil) async throws -> ProductStores<TallyProduct> {
        let masterKey = try MasterKey.demo(file: directory.url.appendingPathComponent("master-key"))
        return try await ProductStores<TallyProduct>.open(
            directory: DataDirectory(directory.url.appendingPathComponent(name)), masterKey: masterKey, logURL: logURL, logger: logger
        )
    }

    /// A user known to the log: one count on their own stream, its note sealed under their key.
    func user(_ userId: Int64, in stores: ProductStores<TallyProduct>) async throws {
        let note = Counted(tally: "own", userId: userId, amount: 1, note: "a note of \(userId)")
        _ = try await stores.store.append([.counted(note)], to: TallyProduct.userStream(userId), eventId: UUID())
    }

    /// A key store older than the erasure (restored from a backup) next to a log that records it.
    @Test func anErasureTheLogRecordsAndTheKeyStoreDoesNotIsAppliedOnOpen() async throws {
        let directory = try TemporaryDirectory()
        var stores = try await open(directory)
        try await user(7, in: stores)
        _ = try await stores.store.append([.userErased(UserErased(userId: 7, initiator: .user))], to: TallyProduct.userStream(7), eventId: UUID())
        #expect(try !stores.keys.isDestroyed(7))
        stores.close()

        stores = try await open(directory)
        defer { stores.close() }
        #expect(try stores.keys.isDestroyed(7))
        guard case .counted(let counted) = try stores.store.readStream(TallyProduct.userStream(7)).events.first?.event else { throw CancellationError() }
        #expect(counted.note == nil && counted.userId == 7)
    }

    @Test func aTombstoneTheRestoredLogLacksIsRecordedAgain() async throws {
        let directory = try TemporaryDirectory()
        var stores = try await open(directory)
        try await user(7, in: stores)
        let logCopy = directory.url.appendingPathComponent("log-copy")
        try FileManager.default.createDirectory(at: logCopy, withIntermediateDirectories: true)
        try stores.log.backup(to: logCopy)
        _ = try stores.keys.applyErasures([.init(userId: 7, position: nil)], reconciledThrough: stores.log.headPosition + 1)
        stores.close()
        // The log from before the erasure, with the key store from after it.
        let log = DataDirectory(directory.url.appendingPathComponent("data")).log
        try FileManager.default.removeItem(at: log)
        try FileManager.default.moveItem(at: logCopy, to: log)

        stores = try await open(directory)
        defer { stores.close() }
        let events = try stores.store.readStream(TallyProduct.userStream(7)).events.map(\.event)
        #expect(events.last == .userErased(UserErased(userId: 7, initiator: .keyStore)))
        #expect(try stores.keys.reconciledThrough() == stores.log.headPosition)
    }

    /// The key destroyed and the process stopped before the erasure was recorded.
    @Test func aKeyDestroyedWhoseErasureWasNotRecordedGetsItsEventOnOpen() async throws {
        let directory = try TemporaryDirectory()
        var stores = try await open(directory)
        try await user(7, in: stores)
        try stores.keys.applyErasures([.init(userId: 7, position: nil)])
        stores.close()

        stores = try await open(directory)
        defer { stores.close() }
        let last = try #require(try stores.store.readStream(TallyProduct.userStream(7)).events.last)
        #expect(last.event == .userErased(UserErased(userId: 7, initiator: .keyStore)))
        #expect(try stores.keys.erasures() == [.init(userId: 7, position: last.position)])
    }

    /// On a shared log: the erasing node stopped for good after destroying the key everywhere, before
    /// recording the erasure. The next node to start records it, once; a node that joins later destroys
    /// no key again (each start rewrote every tombstone the log records, one statement apiece).
    @Test(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL"))
    func onASharedLogAKeyDestroyedWhoseErasureWasNotRecordedGetsItsEventAtTheNextStart() async throws {
        let url = try await TestPostgres.newDatabase()
        let directory = try TemporaryDirectory()
        let erasing = try await open(directory, "node-1", logURL: url)
        for userId in [7, 8] as [Int64] { try await user(userId, in: erasing) }
        _ = try await UserErasure(stores: erasing, runner: try erasing.runner(logger: logger)).erase(8, initiator: .user)
        _ = try await erasing.keys.applyErasuresEverywhere([.init(userId: 7, position: nil)])
        erasing.close()

        let next = try await open(directory, "node-2", logURL: url)
        let last = try #require(try next.store.readStream(TallyProduct.userStream(7)).events.last)
        #expect(last.event == .userErased(UserErased(userId: 7, initiator: .keyStore)))
        #expect(try next.keys.erasure(of: 7) == .init(userId: 7, position: last.position))
        next.close()
        let sequence = try await TestPostgres.keyStoreSequence(of: url)
        let joining = try await open(directory, "node-3", logURL: url)
        defer { joining.close() }
        let erasures = try joining.store.readStream(TallyProduct.userStream(7)).events.filter { $0.event == .userErased(UserErased(userId: 7, initiator: .keyStore)) }
        #expect(erasures.count == 1)
        #expect(try await TestPostgres.keyStoreSequence(of: url) == sequence, "a joining node destroys no key again")
    }

    /// The same unrecorded erasure met by two nodes starting at once: both start, and it is recorded once.
    @Test(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL"))
    func twoNodesStartingAtOnceOverAnUnrecordedErasureRecordItOnce() async throws {
        let url = try await TestPostgres.newDatabase()
        let directory = try TemporaryDirectory()
        let erasing = try await open(directory, "node-1", logURL: url)
        try await user(7, in: erasing)
        _ = try await erasing.keys.applyErasuresEverywhere([.init(userId: 7, position: nil)])
        erasing.close()

        async let openingA = open(directory, "node-2", logURL: url)
        async let openingB = open(directory, "node-3", logURL: url)
        let (a, b) = try await (openingA, openingB)
        defer { a.close(); b.close() }
        let erased = UserErased(userId: 7, initiator: .keyStore)
        let seenByA = try a.store.readStream(TallyProduct.userStream(7)).events.filter { $0.event == .userErased(erased) }
        #expect(seenByA.count == 1, "\(seenByA.map(\.position))")
        let last = try #require(seenByA.last)
        #expect(try a.keys.erasure(of: 7) == .init(userId: 7, position: last.position))
        #expect(try b.keys.erasure(of: 7) == .init(userId: 7, position: last.position))
    }

    /// An erasure that stopped after destroying the key is resumed by asking again; one recorded is
    /// refused as already done.
    @Test func anErasureStoppedHalfwayIsResumedByAskingAgain() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await open(directory)
        defer { stores.close() }
        try await user(7, in: stores)
        try stores.keys.applyErasures([.init(userId: 7, position: nil)])
        let erasure = UserErasure(stores: stores, runner: try stores.runner(logger: logger))
        let result = try await erasure.erase(7, initiator: .operator)
        #expect(try stores.keys.erasure(of: 7) == .init(userId: 7, position: result.position))
        await #expect(throws: UserErasureFailure.alreadyErased(7)) { try await erasure.erase(7, initiator: .operator) }
        await #expect(throws: UserErasureFailure.unknownUser(999)) { try await erasure.erase(999, initiator: .operator) }
        #expect(try !stores.keys.isDestroyed(999), "an unknown user is not tombstoned")
    }

    /// A restore never replaces a key store in place: it is the newest there is.
    @Test func aRestoreKeepsTheKeyStoreInPlaceAndRefusesAnother() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data"), backup = directory.url.appendingPathComponent("backup")
        let stores = try await open(directory)
        try await user(7, in: stores)
        try Backup.create(TallyProduct.self, from: data, to: backup)
        let other = directory.url.appendingPathComponent("other-keys.sqlite").path
        try stores.keys.backup(to: other)
        stores.close()
        let keyStore = URL(fileURLWithPath: DataDirectory(data).keyStorePath)
        let before = try Data(contentsOf: keyStore)
        #expect(throws: Backup.Failure.self) {
            try Backup.restore(TallyProduct.self, from: backup, to: data, keyStore: URL(fileURLWithPath: other), force: true)
        }
        #expect(try Data(contentsOf: keyStore) == before, "untouched")
        let link = directory.url.appendingPathComponent("link-to-keys.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: keyStore.path)
        try Backup.restore(TallyProduct.self, from: backup, to: data, keyStore: link, force: true)
        #expect(try Data(contentsOf: keyStore) == before, "the same file by another name is kept")
    }
}
