import EventLog
import EventSourcing
import Foundation
import GRDB
import Logging
import PersonalData
@testable import ReadModels
import TestSupport
import Testing

/// The projection runner on a real LMDB log and a real SQLite read database, folding the engine's
/// test product (`TallyCatalog`): given these events, then these read models.
final class TallyReadModels {
    let directory: TemporaryDirectory
    let log: EventLog
    let keys: KeyStoreCipher
    let store: EventStore<TallyCatalog>
    private(set) var projections: [any Projection<TallyEvent>]
    private(set) var database: ReadDatabase
    private(set) var runner: ProjectionRunner<TallyCatalog>

    /// `generations`: the read database opened from a directory of read-model files, as a server's
    /// is, so a rebuild can swap in a new one.
    init(projections: [any Projection<TallyEvent>] = [TallyProjection(), NotesProjection()], generations: Bool = false) throws {
        directory = try TemporaryDirectory()
        log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent("log"), initialMapSize: 16 << 20))
        keys = try testKeyStore(in: directory)
        store = EventStore(log: log, personalData: keys)
        self.projections = projections
        self.generations = generations
        (database, runner) = try Self.open(directory, log, keys, projections, generations: generations)
    }

    private let generations: Bool
    var readDirectory: URL { directory.url.appendingPathComponent("read") }

    deinit {
        log.close()
        try? database.close()
        try? keys.keys.close()
    }

    private static func open(
        _ directory: TemporaryDirectory, _ log: EventLog, _ keys: KeyStoreCipher, _ projections: [any Projection<TallyEvent>], generations: Bool
    ) throws -> (ReadDatabase, ProjectionRunner<TallyCatalog>) {
        let read = directory.url.appendingPathComponent("read")
        let database = generations
            ? try ReadDatabase(directory: read, projections: projections)
            : try ReadDatabase(path: read.appendingPathComponent("read.sqlite").path, projections: projections)
        let runner = try ProjectionRunner<TallyCatalog>(log: log, personalData: keys, database: database, projections: projections, batchSize: 3, logger: Logger(label: "test"))
        return (database, runner)
    }

    /// Given these counts, each on its tally's stream.
    func given(_ counts: [(tally: String, user: Int64, amount: Int)]) async throws {
        for (tally, user, amount) in counts {
            _ = try await store.append([.counted(Counted(tally: tally, userId: user, amount: amount, note: "note of \(user)"))], to: "tally-\(tally)", eventId: .timeOrdered())
        }
    }

    /// A crash: the connections and runner dropped, then opened again over the same files.
    func restart(with projections: [any Projection<TallyEvent>]? = nil) throws {
        try database.close()
        self.projections = projections ?? self.projections
        (database, runner) = try Self.open(directory, log, keys, self.projections, generations: generations)
    }

    /// The runner running as a server runs it while `body` runs; stopped, and waited for, before the
    /// files can close (a fold or checkpoint under way on a closed connection is a crash in SQLite).
    func whileServing<T>(_ body: (ProjectionRunner<TallyCatalog>) async throws -> T) async throws -> T {
        let runner = self.runner
        let running = Task { try await runner.run() }
        let result: Result<T, any Error>
        do { result = .success(try await body(runner)) } catch { result = .failure(error) }
        running.cancel()
        _ = await running.result
        return try result.get()
    }

    func rows() throws -> [String] {
        try database.read { db in try Row.fetchAll(db, sql: "SELECT name, total, counts FROM tally ORDER BY name").map { "\($0[0] as String)=\($0[1] as Int)/\($0[2] as Int)" } }
    }
}

@Suite struct ProjectionRunnerTests {
    static let counts: [(tally: String, user: Int64, amount: Int)] = [
        ("cups", 1, 2), ("plates", 2, 1), ("cups", 2, 3), ("bowls", 1, 1), ("cups", 3, 1), ("plates", 1, 4), ("bowls", 3, 2),
    ]

    @Test func theRunnerFoldsTheLogAndCheckpointsEveryProjectionAtTheHead() async throws {
        let models = try TallyReadModels()
        try await models.given(Self.counts)
        #expect(try models.runner.catchUp() == 7)
        #expect(try models.rows() == ["bowls=3/2", "cups=6/3", "plates=5/2"])
        #expect(try models.runner.status().map(\.position) == [7, 7])
        #expect(try models.runner.catchUp() == 0)
    }

    @Test(arguments: [1, 3, 4, 6])
    func aRunnerStoppedAnywhereResumesExactly(stopAt: UInt64) async throws {
        let models = try TallyReadModels()
        try await models.given(Self.counts)
        _ = try models.runner.catchUp(until: stopAt)
        #expect(try models.runner.status().allSatisfy { $0.position == stopAt })
        try models.restart()
        _ = try models.runner.catchUp()

        let whole = try TallyReadModels()
        try await whole.given(Self.counts)
        _ = try whole.runner.catchUp()
        #expect(try models.database.canonicalDump() == whole.database.canonicalDump())
    }

    /// Its batch (positions 4–6 here) is rolled back for it alone: its rows and checkpoint stay as
    /// they were after the batch before, consistent with each other.
    @Test func aProjectionThatFailsStopsAloneAtItsPositionAndTheOthersGoOn() async throws {
        let models = try TallyReadModels(projections: [TallyProjection(failingAt: "bowls"), NotesProjection()])
        try await models.given(Self.counts)
        _ = try models.runner.catchUp()
        let status = try models.runner.status()
        let tallies = try #require(status.first { $0.name == "tallies" })
        #expect(tallies.failedPosition == 4 && tallies.position == 3 && tallies.failure != nil)
        #expect(status.first { $0.name == "tally-notes" }?.position == 7)
        #expect(try models.rows() == ["cups=5/2", "plates=1/1"])
    }

    /// An event no projection can read (its owner's key damaged, here) found by a projection folding
    /// again from 0 (a new version) stopped every projection, those that had applied it long before too.
    @Test func anUnreadableEventStopsOnlyTheProjectionsThatHadNotAppliedIt() async throws {
        let models = try TallyReadModels()
        try await models.given(Self.counts)
        _ = try models.runner.catchUp()
        try models.restart(with: [TallyProjection(version: 2), NotesProjection()])
        let runner = try ProjectionRunner<TallyCatalog>(
            log: models.log, personalData: RefusingOwner(cipher: models.keys, owner: 2), database: models.database, projections: models.projections,
            batchSize: 3, logger: Logger(label: "test")
        )
        _ = try runner.catchUp()
        let status = try runner.status()
        #expect(status.first { $0.name == "tallies" }.map { [$0.position, $0.failedPosition] } == [0, 2])
        #expect(status.first { $0.name == "tally-notes" }.map { [$0.position, $0.failedPosition] } == [7, nil])
    }

    /// A busy or failing database may say nothing about the event: the batch is tried again, where
    /// recording it as the projection's failure stopped the projection until a replay; one that
    /// repeats at the same event is recorded after `passingAttempts`.
    @Test func aPassingSQLiteErrorIsTriedAgainNotRecordedAsTheProjectionsFailure() async throws {
        let busy = DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked")
        let models = try TallyReadModels(projections: [TallyProjection(failingAt: "bowls", with: busy), NotesProjection()])
        try await models.given(Self.counts)
        for _ in 1...ProjectionRunner<TallyCatalog>.passingAttempts {
            #expect(throws: FoldToTryAgain.self) { try models.runner.catchUp() }
            #expect(try models.runner.status().allSatisfy { $0.failedPosition == nil })
        }
        try models.restart(with: [TallyProjection(), NotesProjection()])
        _ = try models.runner.catchUp()
        #expect(try models.rows() == ["bowls=3/2", "cups=6/3", "plates=5/2"])

        let repeating = try TallyReadModels(projections: [TallyProjection(failingAt: "bowls", with: busy), NotesProjection()])
        try await repeating.given(Self.counts)
        for _ in 1...ProjectionRunner<TallyCatalog>.passingAttempts { _ = try? repeating.runner.catchUp() }
        _ = try repeating.runner.catchUp()
        #expect(try repeating.runner.status().map(\.failedPosition) == [4, nil])
    }

    /// A release rolled back to one without a projection leaves that projection's checkpoint: it held
    /// the position published (and every read-your-writes wait) where it stopped.
    @Test func aCheckpointOfAProjectionThisBuildLacksHoldsNothingBack() async throws {
        let models = try TallyReadModels()
        try await models.given(Self.counts)
        _ = try models.runner.catchUp()
        try models.restart(with: [TallyProjection()])
        try await models.given([("cups", 1, 1), ("mugs", 2, 1)])
        _ = try models.runner.catchUp()
        #expect(models.runner.appliedPosition == 9)
        #expect(try models.runner.status().map(\.name) == ["tallies"])
        #expect(await models.runner.waitUntilApplied(9, timeout: .milliseconds(100)))
    }

    @Test func aNewProjectionVersionRefoldsTheWholeLogIntoItsTables() async throws {
        let models = try TallyReadModels()
        try await models.given(Self.counts)
        _ = try models.runner.catchUp()
        try await models.database.pool.write { try $0.execute(sql: "DELETE FROM tally") }
        try models.restart(with: [TallyProjection(version: 2), NotesProjection()])
        #expect(try models.runner.status().first { $0.name == "tallies" }.map { [$0.version, Int($0.position)] } == [2, 0])
        _ = try models.runner.catchUp()
        #expect(try models.rows() == ["bowls=3/2", "cups=6/3", "plates=5/2"])
    }

    /// A stopped projection's tables still answer reads until a replay: an erasure reaches them all the
    /// same, and its checkpoint stays where it stopped.
    @Test func anErasureReachesAProjectionStoppedBeforeIt() async throws {
        let models = try TallyReadModels(projections: [TallyProjection(), NotesProjection(failingFor: 3)])
        try await models.given(Self.counts)
        _ = try await models.store.append([.userErased(UserErased(userId: 2, initiator: .operator))], to: "user-2", eventId: .timeOrdered())
        _ = try models.runner.catchUp()
        let notes = try #require(try models.runner.status().first { $0.name == "tally-notes" })
        #expect(notes.failedPosition == 5 && notes.position == 3)
        #expect(try models.database.read { try Int64.fetchAll($0, sql: "SELECT userId FROM tallyNote ORDER BY position") } == [1])
        #expect(models.runner.appliedPosition == 8)
    }

    /// With every projection stopped, nothing read the log any more: erasures recorded since left the
    /// users' rows served.
    @Test func anErasureReachesTheProjectionsWhenEveryOneIsStopped() async throws {
        let models = try TallyReadModels(projections: [TallyProjection(failingAt: "plates"), NotesProjection(failingFor: 3)])
        try await models.given(Self.counts)
        _ = try models.runner.catchUp()
        #expect(try models.runner.status().allSatisfy { $0.failedPosition != nil })
        let revision = models.runner.revision
        _ = try await models.store.append([.userErased(UserErased(userId: 2, initiator: .operator))], to: "user-2", eventId: .timeOrdered())
        for _ in 0..<10 where try models.runner.catchUp() > 0 {}
        #expect(try models.database.read { try Int64.fetchAll($0, sql: "SELECT userId FROM tallyNote ORDER BY position") } == [1])
        #expect(models.runner.appliedPosition == 8, "the erasure's wait for the read models ends")
        #expect(models.runner.revision > revision, "answers remembered from before it are not served again")
        #expect(try models.runner.status().map(\.failedPosition) == [2, 5])
    }

    /// Its rows are zeroed in the file, and a serving runner (any node's, whoever recorded the
    /// erasure) truncates the WAL that still held their pages.
    @Test func aServingRunnerTruncatesTheWALOnceItFoldsAnErasure() async throws {
        let models = try TallyReadModels()
        let wal = models.directory.url.appendingPathComponent("read/read.sqlite-wal").path
        try await models.whileServing { runner in
            try await models.given(Self.counts)
            #expect(await runner.waitUntilApplied(7, timeout: .seconds(60)))
            #expect(try #require(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) > 0)
            _ = try await models.store.append([.userErased(UserErased(userId: 2, initiator: .operator))], to: "user-2", eventId: .timeOrdered())
            #expect(await runner.waitUntilApplied(8, timeout: .seconds(60)))
            // Generous: it ends as soon as the runner gets there, and a loaded CI machine is slow.
            let deadline = ContinuousClock.now + .seconds(60)
            while try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int != 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int == 0)
            #expect(try !Data(contentsOf: models.directory.url.appendingPathComponent("read/read.sqlite")).contains(Data("note of 2".utf8)))
        }
    }

    /// A process killed after an erasure's fold committed and before the WAL's truncation: the next
    /// start truncates it, since nothing records whether the last one did.
    @Test func aServingRunnerTruncatesTheWALOnceAtItsStart() async throws {
        let models = try TallyReadModels()
        let wal = models.directory.url.appendingPathComponent("read/read.sqlite-wal").path
        try await models.given(Self.counts)
        _ = try models.runner.catchUp()
        #expect(try #require(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) > 0)
        try await models.whileServing { _ in
            let deadline = ContinuousClock.now + .seconds(60)
            while try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int != 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int == 0)
        }
    }

    @Test func personalFieldsAreFoldedOpenedAndAnErasureFoldsThemAway() async throws {
        let models = try TallyReadModels()
        try await models.given(Self.counts)
        _ = try await models.store.append([.userErased(UserErased(userId: 2, initiator: .operator))], to: "user-2", eventId: .timeOrdered())
        _ = try models.runner.catchUp()
        let notes = try models.database.read { try String.fetchAll($0, sql: "SELECT note FROM tallyNote ORDER BY position") }
        #expect(notes == ["note of 1", "note of 1", "note of 3", "note of 1", "note of 3"])
        #expect(try models.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM tallyNote WHERE userId = 2") } == 0)
    }
}

/// The key store refusing one owner's values, as with a damaged wrapped key: their events cannot be read.
private struct RefusingOwner: PersonalDataCipher {
    let cipher: KeyStoreCipher
    let owner: Int64

    func seal(_ value: String, owner: Int64, field: String) throws -> String {
        try cipher.seal(value, owner: owner, field: field)
    }

    func open(_ stored: String, owner: Int64, field: String) throws -> String? {
        guard owner != self.owner else { throw KeyStoreCipher.Failure.unauthentic(userId: owner, field: field) }
        return try cipher.open(stored, owner: owner, field: field)
    }

    var keyDestructions: UInt64 { cipher.keyDestructions }
    func onKeysDestroyed(_ action: @escaping @Sendable (UInt64) -> Void) { cipher.onKeysDestroyed(action) }
}
