import EventSourcing
import Foundation
import Logging
import NuvieCommands
import NuvieDomain
import TestSupport
import Testing
@testable import NuvieApp

/// The key store and the log agree on every open, before anything reads a personal field.
@Suite(.timeLimit(.minutes(1))) struct ErasureReconciliationTests {
    let logger = Logger(label: "reconciliation-test")

    /// A key store older than the erasure (restored from a backup) next to a log that records it.
    @Test func anErasureTheLogRecordsAndTheKeyStoreDoesNotIsAppliedOnOpen() async throws {
        let directory = try TemporaryDirectory()
        let configuration = AppConfiguration.testing(dataDirectory: directory.url)
        var storage = try await Storage(configuration: configuration, logger: logger)
        let signIn = try await CommandService(store: storage.store).signIn(Identity(provider: .dev, subject: "ghost"), name: "Ghost Writer", email: nil)
        _ = try await storage.store.append(
            [.userErased(UserErased(userId: signIn.userId, initiator: .user))], to: StreamName.user(signIn.userId), eventId: UUID()
        )
        #expect(try !storage.stores.keys.isDestroyed(signIn.userId))
        storage.close()

        storage = try await Storage(configuration: configuration, logger: logger)
        defer { storage.close() }
        #expect(try storage.stores.keys.isDestroyed(signIn.userId))
        let registered = try storage.store.readStream(StreamName.user(signIn.userId)).events.first
        guard case .userRegistered(let user) = registered?.event else { throw CancellationError() }
        #expect(user.name == nil && user.userId == signIn.userId)
    }

    @Test func aTombstoneTheRestoredLogLacksIsRecordedAgain() async throws {
        let directory = try TemporaryDirectory()
        let configuration = AppConfiguration.testing(dataDirectory: directory.url)
        var storage = try await Storage(configuration: configuration, logger: logger)
        let signIn = try await CommandService(store: storage.store).signIn(Identity(provider: .dev, subject: "late"), name: "Late Eraser", email: nil)
        let logCopy = directory.url.appendingPathComponent("log-copy")
        try FileManager.default.createDirectory(at: logCopy, withIntermediateDirectories: true)
        try storage.log.backup(to: logCopy)
        _ = try storage.stores.keys.applyErasures([.init(userId: signIn.userId, position: nil)], reconciledThrough: storage.log.headPosition + 1)
        storage.close()
        // The log from before the erasure, with the key store from after it.
        let log = directory.url.appendingPathComponent("log")
        try FileManager.default.removeItem(at: log)
        try FileManager.default.moveItem(at: logCopy, to: log)

        storage = try await Storage(configuration: configuration, logger: logger)
        defer { storage.close() }
        let events = try storage.store.readStream(StreamName.user(signIn.userId)).events.map(\.event)
        #expect(events.last == .userErased(UserErased(userId: signIn.userId, initiator: .keyStore)))
        #expect(try storage.stores.keys.reconciledThrough() == storage.log.headPosition)
    }

    /// The key destroyed and the process stopped before the erasure was recorded.
    @Test func aKeyDestroyedWhoseErasureWasNotRecordedGetsItsEventOnOpen() async throws {
        let directory = try TemporaryDirectory()
        let configuration = AppConfiguration.testing(dataDirectory: directory.url)
        var storage = try await Storage(configuration: configuration, logger: logger)
        let signIn = try await CommandService(store: storage.store).signIn(Identity(provider: .dev, subject: "halfway"), name: "Half Way", email: nil)
        try storage.stores.keys.applyErasures([.init(userId: signIn.userId, position: nil)])
        storage.close()

        storage = try await Storage(configuration: configuration, logger: logger)
        defer { storage.close() }
        let last = try #require(try storage.store.readStream(StreamName.user(signIn.userId)).events.last)
        #expect(last.event == .userErased(UserErased(userId: signIn.userId, initiator: .keyStore)))
        #expect(try storage.stores.keys.erasures() == [.init(userId: signIn.userId, position: last.position)])
    }
}
