import EventSourcing
import Foundation
import Logging
import NuvieCommands
import NuvieDomain
import NuvieProjections
import ProductHosting
import TestSupport
import Testing
@testable import NuvieApp

/// The key store and the log agree on every open, before anything reads a personal field.
@Suite(.timeLimit(.minutes(1))) struct ErasureReconciliationTests {
    let logger = Logger(label: "reconciliation-test")

    /// A key store older than the erasure (restored from a backup) next to a log that records it.
    @Test func anErasureTheLogRecordsAndTheKeyStoreDoesNotIsAppliedOnOpen() async throws {
        let directory = try TemporaryDirectory()
        let configuration = NuvieConfiguration.testing(dataDirectory: directory.url)
        var storage = try await ProductStores<NuvieProduct>.open(for: configuration, logger: logger)
        let signIn = try await CommandService(store: storage.store).signIn(Identity(provider: .dev, subject: "ghost"), name: "Ghost Writer", email: nil)
        _ = try await storage.store.append(
            [.userErased(UserErased(userId: signIn.userId, initiator: .user))], to: StreamName.user(signIn.userId), eventId: UUID()
        )
        #expect(try !storage.keys.isDestroyed(signIn.userId))
        storage.close()

        storage = try await ProductStores<NuvieProduct>.open(for: configuration, logger: logger)
        defer { storage.close() }
        #expect(try storage.keys.isDestroyed(signIn.userId))
        let registered = try storage.store.readStream(StreamName.user(signIn.userId)).events.first
        guard case .userRegistered(let user) = registered?.event else { throw CancellationError() }
        #expect(user.name == nil && user.userId == signIn.userId)
    }

    @Test func aTombstoneTheRestoredLogLacksIsRecordedAgain() async throws {
        let directory = try TemporaryDirectory()
        let configuration = NuvieConfiguration.testing(dataDirectory: directory.url)
        var storage = try await ProductStores<NuvieProduct>.open(for: configuration, logger: logger)
        let signIn = try await CommandService(store: storage.store).signIn(Identity(provider: .dev, subject: "late"), name: "Late Eraser", email: nil)
        let logCopy = directory.url.appendingPathComponent("log-copy")
        try FileManager.default.createDirectory(at: logCopy, withIntermediateDirectories: true)
        try storage.log.backup(to: logCopy)
        _ = try storage.keys.applyErasures([.init(userId: signIn.userId, position: nil)], reconciledThrough: storage.log.headPosition + 1)
        storage.close()
        // The log from before the erasure, with the key store from after it.
        let log = directory.url.appendingPathComponent("log")
        try FileManager.default.removeItem(at: log)
        try FileManager.default.moveItem(at: logCopy, to: log)

        storage = try await ProductStores<NuvieProduct>.open(for: configuration, logger: logger)
        defer { storage.close() }
        let events = try storage.store.readStream(StreamName.user(signIn.userId)).events.map(\.event)
        #expect(events.last == .userErased(UserErased(userId: signIn.userId, initiator: .keyStore)))
        #expect(try storage.keys.reconciledThrough() == storage.log.headPosition)
    }

    /// The key destroyed and the process stopped before the erasure was recorded.
    @Test func aKeyDestroyedWhoseErasureWasNotRecordedGetsItsEventOnOpen() async throws {
        let directory = try TemporaryDirectory()
        let configuration = NuvieConfiguration.testing(dataDirectory: directory.url)
        var storage = try await ProductStores<NuvieProduct>.open(for: configuration, logger: logger)
        let signIn = try await CommandService(store: storage.store).signIn(Identity(provider: .dev, subject: "halfway"), name: "Half Way", email: nil)
        try storage.keys.applyErasures([.init(userId: signIn.userId, position: nil)])
        storage.close()

        storage = try await ProductStores<NuvieProduct>.open(for: configuration, logger: logger)
        defer { storage.close() }
        let last = try #require(try storage.store.readStream(StreamName.user(signIn.userId)).events.last)
        #expect(last.event == .userErased(UserErased(userId: signIn.userId, initiator: .keyStore)))
        #expect(try storage.keys.erasures() == [.init(userId: signIn.userId, position: last.position)])
    }

    /// An erasure that stopped after destroying the key is resumed by asking again; one recorded is
    /// refused as already done.
    @Test func anErasureStoppedHalfwayIsResumedByAskingAgain() async throws {
        let directory = try TemporaryDirectory()
        let storage = try await ProductStores<NuvieProduct>.open(for: NuvieConfiguration.testing(dataDirectory: directory.url), logger: logger)
        defer { storage.close() }
        let signIn = try await CommandService(store: storage.store).signIn(Identity(provider: .dev, subject: "resume"), name: "Re Sume", email: nil)
        try storage.keys.applyErasures([.init(userId: signIn.userId, position: nil)])
        let erasure = UserErasure(stores: storage, runner: try storage.runner(logger: logger))
        let result = try await erasure.erase(signIn.userId, initiator: .operator)
        #expect(try storage.keys.erasure(of: signIn.userId) == .init(userId: signIn.userId, position: result.position))
        await #expect(throws: UserErasureFailure.alreadyErased(signIn.userId)) { try await erasure.erase(signIn.userId, initiator: .operator) }
        await #expect(throws: UserErasureFailure.unknownUser(999)) { try await erasure.erase(999, initiator: .operator) }
        #expect(try !storage.keys.isDestroyed(999), "an unknown user is not tombstoned")
    }

    /// A restore never replaces a key store in place: it is the newest there is.
    @Test func aRestoreKeepsTheKeyStoreInPlaceAndRefusesAnother() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data"), backup = directory.url.appendingPathComponent("backup")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let storage = try await ProductStores<NuvieProduct>.open(for: NuvieConfiguration.testing(dataDirectory: data), logger: logger)
        _ = try await CommandService(store: storage.store).signIn(Identity(provider: .dev, subject: "kept"), name: "Kept", email: nil)
        try Backup.create(NuvieProduct.self, from: data, to: backup)
        let other = directory.url.appendingPathComponent("other-keys.sqlite").path
        try storage.keys.backup(to: other)
        storage.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: DataDirectory(data).keyStorePath))
        #expect(throws: Backup.Failure.self) {
            try Backup.restore(NuvieProduct.self, from: backup, to: data, keyStore: URL(fileURLWithPath: other), force: true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: DataDirectory(data).keyStorePath)) == before, "untouched")
        let link = directory.url.appendingPathComponent("link-to-keys.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: DataDirectory(data).keyStorePath)
        try Backup.restore(NuvieProduct.self, from: backup, to: data, keyStore: link, force: true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: DataDirectory(data).keyStorePath)) == before, "the same file by another name is kept")
    }
}
