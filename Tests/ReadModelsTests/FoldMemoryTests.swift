import Foundation
import GRDB
import ReadModels
import TestSupport
import Testing

/// What a projection keeps between batches is handed back only to the batch that follows a committed
/// one, on the same file at the checkpoint it was kept for; and a serving runner, once caught up,
/// copies the read models' WAL into their file.
@Suite struct FoldMemoryTests {
    private struct Rollback: Error {}

    @Test func keptStateIsHandedBackOnceToTheNextBatchOnTheSameFileAtItsCheckpoint() throws {
        let models = try TallyReadModels()
        let other = try TallyReadModels()
        let memory = FoldMemory<Int>()
        /// In a batch of its own: what it was handed, then what it keeps through `position`, if anything.
        func batch(on database: ReadDatabase? = nil, keeping kept: Int? = nil, through position: UInt64 = 0, rollingBack: Bool = false) throws -> [Int?] {
            try (database ?? models.database).pool.write { db in
                let handed = [try memory.recall(for: "tallies", db), try memory.recall(for: "tallies", db)]
                if let kept { memory.keep(kept, through: position, db) }
                if rollingBack { throw Rollback() }
                return handed
            }
        }

        #expect(try batch(keeping: 1) == [nil, nil])
        #expect(try batch(keeping: 2) == [1, nil], "handed back once: taking it forgets it")
        #expect(try batch(on: other.database) == [nil, nil], "another file")
        #expect(try batch(keeping: 3) == [nil, nil], "the other file's batch took it")
        #expect(throws: Rollback.self) { try batch(keeping: 4, rollingBack: true) }
        #expect(try batch() == [nil, nil], "a batch rolled back keeps nothing")
        #expect(try batch(keeping: 5, through: 7) == [nil, nil])
        #expect(try batch() == [nil, nil], "the checkpoint is not where it was kept for")
    }

    @Test func aServingRunnerCheckpointsTheWALOnceCaughtUp() async throws {
        let models = try TallyReadModels()
        let file = models.directory.url.appendingPathComponent("read/read.sqlite")
        try await models.whileServing { _ in
            try await models.given(ProjectionRunnerTests.counts)
            // Generous bounds: both end as soon as the runner gets there, and a loaded CI machine is slow.
            #expect(await models.runner.waitUntilApplied(7, timeout: .seconds(60)))
            // SQLite would copy so few pages into the file only at the 10,000th; until then they are in the WAL.
            let deadline = ContinuousClock.now + .seconds(60)
            while try !Data(contentsOf: file).contains(Data("plates".utf8)), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try Data(contentsOf: file).contains(Data("plates".utf8)))
        }
    }
}
