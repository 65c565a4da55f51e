import EventSourcing
import Foundation
import GRDB
import Logging
import PersonalData
import ProductHosting
import TestSupport
import Testing

/// `log-copy` on the engine's test product: a data directory's log and keys moved into PostgreSQL,
/// resumed where it stopped, refused into a database that holds another log, and a node of the
/// shared log folding what one machine folded, its erasures kept.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(2)))
struct LogCopyTests {
    let logger = Logger(label: "log-copy-test")

    func count(_ tally: String, user: Int64, in stores: ProductStores<TallyProduct>) async throws {
        let counted = Counted(tally: tally, userId: user, amount: Int(user), note: "note of \(user)")
        _ = try await stores.store.append([.counted(counted)], to: TallyProduct.userStream(user), eventId: .timeOrdered())
    }

    func rows(_ stores: ProductStores<TallyProduct>) throws -> [String] {
        try stores.readDatabase.read { db in
            try Row.fetchAll(db, sql: "SELECT name, total, counts FROM tally ORDER BY name").map { "\($0[0] as String)=\($0[1] as Int)/\($0[2] as Int)" }
                + Row.fetchAll(db, sql: "SELECT userId, note FROM tallyNote ORDER BY position").map { "\($0[0] as Int64):\($0[1] as String? ?? "-")" }
        }
    }

    @Test func aLogMovesIntoPostgresResumesAndANodeFoldsTheSameReadModels() async throws {
        let directory = try TemporaryDirectory()
        let masterKey = try MasterKey.demo(file: directory.url.appendingPathComponent("master-key"))
        let data = DataDirectory(directory.url.appendingPathComponent("data"))
        let url = try await TestPostgres.newDatabase()

        var stores = try await ProductStores<TallyProduct>.open(directory: data, masterKey: masterKey, logger: logger)
        for (tally, user) in [("cups", 1), ("cups", 2), ("plates", 3)] { try await count(tally, user: Int64(user), in: stores) }
        // An upload, read through every node once the log is shared (before, it stayed in this directory alone).
        let upload = try stores.uploadedFiles.store(Data("an upload".utf8), owner: 1)
        _ = try await UserErasure(stores: stores, runner: try stores.runner(logger: logger)).erase(2, initiator: .operator)
        stores.close()

        let first = try await LogCopy.run(TallyProduct.self, from: data, to: url, masterKey: masterKey, logger: logger)
        #expect((first.copiedEvents, first.head, first.keys, first.erasures, first.files) == (4, 4, 2, 1, 1))
        #expect(try await LogCopy.run(TallyProduct.self, from: data, to: url, masterKey: masterKey, logger: logger).copiedEvents == 0)
        // Copied with no server on it, the directory holds the shared log: served alone, it would part from it.
        await #expect(throws: SharedLogUnavailable.self) { try await ProductStores<TallyProduct>.open(directory: data, masterKey: masterKey, logger: self.logger) }
        // An operator who serves it alone all the same says so by removing the mark.
        try FileManager.default.removeItem(at: data.sharedLogMarker)

        stores = try await ProductStores<TallyProduct>.open(directory: data, masterKey: masterKey, logger: logger)
        try await count("bowls", user: 1, in: stores)
        _ = try stores.runner(logger: logger).catchUp()
        let expected = try rows(stores)
        stores.close()
        let resumed = try await LogCopy.run(TallyProduct.self, from: data, to: url, masterKey: masterKey, logger: logger)
        #expect((resumed.copiedEvents, resumed.head) == (1, 5))
        #expect(expected == ["bowls=1/1", "cups=3/2", "plates=3/1", "1:note of 1", "3:note of 3", "1:note of 1"])

        let node = try await ProductStores<TallyProduct>.open(
            directory: DataDirectory(directory.url.appendingPathComponent("node")), masterKey: masterKey, logURL: url, logger: logger
        )
        defer { node.close() }
        _ = try node.runner(logger: logger).catchUp()
        #expect(try rows(node) == expected)
        #expect(try await node.uploadedFiles.contents(upload.sha256, owner: 1) == Data("an upload".utf8))
    }

    /// A copy made while a server serves the directory leaves it unmarked (the server's later
    /// writes would stay here alone); the next, made once it has stopped, copies those and marks it.
    @Test func aCopyBesideAServerLeavesTheDirectoryUnmarkedUntilOneWithoutIt() async throws {
        let directory = try TemporaryDirectory()
        let masterKey = try MasterKey.demo(file: directory.url.appendingPathComponent("master-key"))
        let data = DataDirectory(directory.url.appendingPathComponent("data"))
        let url = try await TestPostgres.newDatabase()
        try await data.whileServing {
            let stores = try await ProductStores<TallyProduct>.open(directory: data, masterKey: masterKey, logger: logger)
            defer { stores.close() }
            try await count("cups", user: 1, in: stores)
            let beside = try await LogCopy.run(TallyProduct.self, from: data, to: url, masterKey: masterKey, logger: logger)
            #expect(beside.head == 1 && !beside.marked)
            #expect(!FileManager.default.fileExists(atPath: data.sharedLogMarker.path))
            try await count("plates", user: 2, in: stores)
        }
        let after = try await LogCopy.run(TallyProduct.self, from: data, to: url, masterKey: masterKey, logger: logger)
        #expect((after.copiedEvents, after.head, after.marked) == (1, 2, true))
        #expect(FileManager.default.fileExists(atPath: data.sharedLogMarker.path))
    }

    /// An embedded deployment's directory started as a node of a shared log that does not begin with
    /// its log (an empty one: the operator has not copied it yet) is refused, and left as it was,
    /// where it was taken for a copy whose history parted and told to rebuild. Copied, it starts as one
    /// (unmarked here, as a copy beside a server leaves it).
    @Test func aDirectoryWithALogOfItsOwnIsNoNodeUntilItIsCopied() async throws {
        let directory = try TemporaryDirectory()
        let masterKey = try MasterKey.demo(file: directory.url.appendingPathComponent("master-key"))
        let data = DataDirectory(directory.url.appendingPathComponent("data"))
        let url = try await TestPostgres.newDatabase()
        let alone = try await ProductStores<TallyProduct>.open(directory: data, masterKey: masterKey, logger: logger)
        try await count("cups", user: 1, in: alone)
        alone.close()
        try await expectNoNode(data, masterKey: masterKey, logURL: url, saying: "holds a log of its own (1 event)")
        // Copied, then written to (as a copy beside its server leaves it, unmarked): the rest is its own.
        let again = try await ProductStores<TallyProduct>.open(directory: data, masterKey: masterKey, logger: logger)
        _ = try await LogCopy.run(TallyProduct.self, from: data, to: url, masterKey: masterKey, logger: logger)
        try await count("plates", user: 2, in: again)
        again.close()
        try FileManager.default.removeItem(at: data.sharedLogMarker)
        try await expectNoNode(data, masterKey: masterKey, logURL: url, saying: "holds events up to position 2 that the shared log")

        let copied = try await LogCopy.run(TallyProduct.self, from: data, to: url, masterKey: masterKey, logger: logger)
        try FileManager.default.removeItem(at: data.sharedLogMarker)
        let node = try await ProductStores<TallyProduct>.open(directory: data, masterKey: masterKey, logURL: url, logger: logger)
        defer { node.close() }
        #expect(copied.head == 2 && node.log.headPosition == 2)
    }

    /// `data` started as a node of the log at `logURL` is refused `saying` why and naming `log-copy`,
    /// and left unmarked.
    func expectNoNode(_ data: DataDirectory, masterKey: MasterKey, logURL: String, saying reason: String) async throws {
        do {
            try await ProductStores<TallyProduct>.open(directory: data, masterKey: masterKey, logURL: logURL, logger: logger).close()
            Issue.record("started as a node: \(reason)")
        } catch {
            #expect("\(error)".contains(reason) && "\(error)".contains("log-copy"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: data.sharedLogMarker.path))
    }

    @Test func aDatabaseHoldingAnotherLogIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let masterKey = try MasterKey.demo(file: directory.url.appendingPathComponent("master-key"))
        let url = try await TestPostgres.newDatabase()
        // Different users: their keys do not clash, so what refuses is the log's first event.
        for (name, user) in [("one", Int64(1)), ("other", 2)] {
            let stores = try await ProductStores<TallyProduct>.open(directory: DataDirectory(directory.url.appendingPathComponent(name)), masterKey: masterKey, logger: logger)
            try await count(name, user: user, in: stores)
            stores.close()
        }
        _ = try await LogCopy.run(TallyProduct.self, from: DataDirectory(directory.url.appendingPathComponent("one")), to: url, masterKey: masterKey, logger: logger)
        // A URL that is not one names the option it came from, not the serving setting.
        do {
            _ = try await LogCopy.run(TallyProduct.self, from: DataDirectory(directory.url.appendingPathComponent("one")), to: "mysql://x", masterKey: masterKey, logger: logger)
            Issue.record("a URL that is no PostgreSQL one was taken")
        } catch {
            #expect("\(error)".hasPrefix("--to=") && !"\(error)".contains("LOG_URL"), "\(error)")
        }
        await #expect(throws: LogCopy.Failure.self) {
            try await LogCopy.run(TallyProduct.self, from: DataDirectory(directory.url.appendingPathComponent("other")), to: url, masterKey: masterKey, logger: logger)
        }
    }
}
