import EventLog
import EventSourcing
import Foundation
import GRDB
@testable import ReadModels
import TestSupport
import Testing

/// A rebuild folds the log into a new read-model file beside the one serving and swaps it in: the
/// engine's, on the tally product.
@Suite struct RebuildTests {
    @Test func aRebuildSwapsInANewGenerationWithTheSameRowsAndSurvivesReopening() async throws {
        let models = try TallyReadModels(generations: true)
        try await models.givenCountsAndAnErasure()
        _ = try models.runner.catchUp()
        let (before, firstFile) = (try models.database.canonicalDump(), models.database.path)

        var reports: [RebuildProgress] = []
        let partial = try models.runner.rebuild(["tally-notes"], progress: { reports.append($0) })
        #expect(partial.finished && partial.position == 8 && reports.last?.finished == true)
        #expect(models.database.path != firstFile && models.database.path == ReadModelFiles(directory: models.readDirectory).currentPath)
        #expect(try models.database.canonicalDump() == before)
        let full = try models.runner.rebuild()
        #expect(full.projections == ["tallies", "tally-notes"])
        #expect(try models.database.canonicalDump() == before)
        #expect(try models.database.indexNames().contains("tallyNoteByUser"), "the index a rebuild defers is built again")
        #expect(throws: RebuildError.unknownProjection("nope", known: ["tallies", "tally-notes"])) { try models.runner.rebuild(["nope"]) }

        try models.restart()
        #expect(try models.database.canonicalDump() == before)
        let files = try FileManager.default.contentsOfDirectory(atPath: models.readDirectory.path).filter { $0.hasSuffix(".sqlite") }
        #expect(files == [URL(fileURLWithPath: models.database.path).lastPathComponent], "older generations are removed on open")
    }

    /// A `CURRENT` that cannot be read is an error, not the default name: taking the default removed the
    /// real generation as stale and folded the whole log again into a new file.
    @Test func anUnreadablePointerIsRefusedAndRemovesNothing() throws {
        let directory = try TemporaryDirectory()
        let generation = directory.url.appendingPathComponent("read-1-abcdef01.sqlite")
        try Data("rows".utf8).write(to: generation)
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("CURRENT"), withIntermediateDirectories: false)
        #expect(throws: (any Error).self) { try ReadDatabase(directory: directory.url, projections: []) }
        #expect(FileManager.default.fileExists(atPath: generation.path))
    }

    /// Read models hold personal data in clear: their files, a rebuilt generation's too, are the
    /// server's user's and group's only (they were 0644 under the usual umask, beside a 0640 log).
    @Test func readModelFilesAreReadableByTheServersUserAndGroupOnly() async throws {
        let models = try TallyReadModels(generations: true)
        try await models.givenCountsAndAnErasure()
        _ = try models.runner.catchUp()
        _ = try models.runner.rebuild()
        _ = try models.runner.catchUp()
        let path = models.database.path
        for file in [path, path + "-wal", path + "-shm"] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
            #expect(mode & 0o777 & ~0o640 == 0, "\(file): \(String(mode, radix: 8))")
        }
    }

    /// A rebuilt projection that cannot apply an event is not swapped in: the rebuild says where,
    /// and the read models serving stay as they were (a replay once swapped in read models that had
    /// stopped, and reported it rebuilt).
    @Test func aRebuildWhoseProjectionStopsSwapsNothingIn() async throws {
        let models = try TallyReadModels(projections: [TallyProjection(failingAt: "bowls"), NotesProjection()], generations: true)
        try await models.given(ProjectionRunnerTests.counts)
        _ = try models.runner.catchUp()
        let (before, live) = (try models.database.canonicalDump(), models.database.path)
        do {
            _ = try models.runner.rebuild()
            Issue.record("the rebuild reported success")
        } catch let RebuildError.projectionFailed(name, position, _) {
            #expect(name == "tallies" && position == 4)
        }
        #expect(models.database.path == live)
        #expect(try models.database.canonicalDump() == before)
        let files = try FileManager.default.contentsOfDirectory(atPath: models.readDirectory.path).filter { $0.hasSuffix(".sqlite") }
        #expect(files == [URL(fileURLWithPath: live).lastPathComponent], "the stopped generation is removed")
    }

    /// Whatever stops a rebuild before the swap removes what it built: a full disk mid-fold, here,
    /// whose half-built generation was left holding as much disk as the live one.
    @Test func aRebuildThatFillsTheDiskRemovesItsGeneration() async throws {
        let full = DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full")
        let models = try TallyReadModels(projections: [TallyProjection(failingAt: "bowls", with: full), NotesProjection()], generations: true)
        try await models.given(ProjectionRunnerTests.counts.filter { $0.tally != "bowls" })
        _ = try models.runner.catchUp()
        let (before, live) = (try models.database.canonicalDump(), models.database.path)
        try await models.given([("bowls", 1, 1)])
        for selected in [nil, ["tallies"]] {
            #expect(throws: StorageFullError.self) { try models.runner.rebuild(selected) }
            #expect(models.database.path == live)
            #expect(try models.database.canonicalDump() == before)
            let files = try FileManager.default.contentsOfDirectory(atPath: models.readDirectory.path).filter { $0.hasPrefix("read") }
            #expect(files.allSatisfy { $0.hasPrefix(URL(fileURLWithPath: live).lastPathComponent) }, "\(files)")
        }
    }

    /// A partial rebuild starts from a copy of the live file, which holds personal data in clear: the
    /// copy is the server's user's and group's only from the moment it exists.
    @Test func aCopyOfTheReadModelsIsPrivateWhenMade() async throws {
        let models = try TallyReadModels()
        try await models.givenCountsAndAnErasure()
        _ = try models.runner.catchUp()
        let copy = models.directory.url.appendingPathComponent("copy.sqlite").path
        try ReadDatabase.backup(fileAt: models.database.path, to: copy)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int)
        #expect(mode & 0o777 & ~0o640 == 0, "\(String(mode, radix: 8))")
    }

    /// A shutdown asks a rebuild to stop: it stops before the swap, the live generation keeps
    /// serving unchanged, and the unfinished file is removed.
    @Test func aRebuildAskedToStopLeavesTheLiveReadModelsAsTheyWere() async throws {
        let models = try TallyReadModels(generations: true)
        // More than one rebuild batch, so that it asks whether to stop.
        var appends: [StreamAppend] = []
        for n in 1...12_000 {
            let event = try await models.store.newEvent(.counted(Counted(tally: "t\(n)", userId: 1, amount: 1, note: nil)))
            appends.append(StreamAppend(streamId: "tally-\(n)", expectedVersion: .noStream, events: [event]))
        }
        _ = try await models.log.append(appends)
        _ = try models.runner.catchUp()
        let (before, live) = (try models.database.canonicalDump(), models.database.path)

        #expect(throws: RebuildError.cancelled) { try models.runner.rebuild(isCancelled: { true }) }
        #expect(models.database.path == live)
        #expect(try models.database.canonicalDump() == before)
        let files = try FileManager.default.contentsOfDirectory(atPath: models.readDirectory.path).filter { $0.hasSuffix(".sqlite") }
        #expect(files == [URL(fileURLWithPath: live).lastPathComponent], "the unfinished generation is removed")

        // A user erased while it runs: the unfinished generation, holding what it opened of them
        // before, goes at its next batch instead of staying until it folds the erasure.
        #expect(throws: RebuildError.erasedMeanwhile) { try models.runner.rebuild(isCancelled: { (try? models.keys.keys.destroy(2)) == nil }) }
        #expect(models.database.path == live)
        let left = try FileManager.default.contentsOfDirectory(atPath: models.readDirectory.path).filter { $0.hasSuffix(".sqlite") }
        #expect(left == [URL(fileURLWithPath: live).lastPathComponent])
    }
}
