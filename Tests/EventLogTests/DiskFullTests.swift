import Foundation
import TestSupport
import Testing
@testable import EventLog

/// The log on a real, small tmpfs that is then filled: appends are refused whole with a typed
/// `StorageFullError`, everything acknowledged stays, and appends resume once space is freed. And on
/// files that refuse writes (immutable), the log's or only its index's.
@Suite(.serialized) struct LogDiskFullTests {
    static let immutableFiles = ConditionTrait.enabled(
        if: ImmutableFiles.areEnforced, "no immutable files here (needs root, chattr, and a filesystem such as ext4): test skipped"
    )

    /// A small log in `directory`, and the directory its files are in.
    static func smallLog(in directory: TemporaryDirectory) throws -> (EventLog, URL) {
        let logDirectory = directory.url.appendingPathComponent("log")
        return (try EventLog(configuration: .init(directory: logDirectory, initialMapSize: 1 << 20)), logDirectory)
    }

    static func event() -> NewEvent { NewEvent(type: "thing-happened", payload: Data(#"{"n":1}"#.utf8)) }

    /// A filesystem that refuses writes for another reason than space (read-only after an error, not
    /// permitted) was a 500 and a healthy `/health`: it is refused as a full disk is, and stands until
    /// a write succeeds, since free space says nothing about it.
    @Test(immutableFiles, .timeLimit(.minutes(2)))
    func aFilesystemThatRefusesWritesRefusesAppendsUntilItTakesThemAgain() async throws {
        let directory = try TemporaryDirectory()
        let (log, logDirectory) = try Self.smallLog(in: directory)
        defer { log.close() }
        let event = Self.event
        let head = try await log.append(to: "before", expectedVersion: .noStream, events: [event()]).lastPosition
        // Not the lock file: LMDB's mutexes live in its shared mapping, where a refused write is SIGBUS.
        let files = [logDirectory.appendingPathComponent("data.mdb")]
        try ImmutableFiles.set(true, files)
        var refusal: StorageFullError?
        do {
            _ = try await log.append(to: "during", expectedVersion: .noStream, events: [event()])
        } catch let error as StorageFullError {
            refusal = error
        }
        try ImmutableFiles.set(false, files)
        let refused = try #require(refusal)
        #expect(refused.reason == .refused && refused.description.contains("refuses writes"), "\(refused)")
        #expect(log.storageFailure?.error == refused, "the failure stands though the filesystem has room")
        #expect(log.headPosition == head)
        _ = try await log.append(to: "after", expectedVersion: .noStream, events: [event()])
        #expect(log.storageFailure == nil)
        #expect(try log.read(from: 1, limit: .max).count == 2)
    }

    /// The index's commit comes after the log's durable one and can fail alone (its file refuses
    /// writes): the append stands, and no read through the index may miss it.
    @Test(immutableFiles, .timeLimit(.minutes(2)))
    func aReadAfterAFailedIndexCommitCatchesTheIndexUpOrThrows() async throws {
        let directory = try TemporaryDirectory()
        let (log, logDirectory) = try Self.smallLog(in: directory)
        defer { log.close() }
        let event = Self.event
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

    @Test(.enabled(if: TmpfsMount.isPermitted, "mounting a tmpfs needs root: disk-full test skipped"), .timeLimit(.minutes(2)))
    func aFullDiskRefusesAppendsWholeAndTheyResumeWhenSpaceReturns() async throws {
        let directory = try TemporaryDirectory()
        let disk = try TmpfsMount(at: directory.url.appendingPathComponent("disk"), megabytes: 8)
        defer { disk.unmount() }
        let log = try EventLog(configuration: .init(directory: disk.url.appendingPathComponent("log"), initialMapSize: 1 << 20))
        defer { log.close() }
        let payload = Data(#"{"text":"\#(String(repeating: "x", count: 2_000))"}"#.utf8)
        func next(_ n: Int) -> NewEvent { NewEvent(type: "thing-happened", payload: payload) }

        var acknowledged: [UInt64: UUID] = [:]
        for n in 0..<20 {
            let event = next(n)
            acknowledged[try await log.append(to: "s-\(n)", expectedVersion: .noStream, events: [event]).lastPosition] = event.id
        }
        let filler = disk.url.appendingPathComponent("filler")
        try disk.fill(with: filler)

        var refusal: StorageFullError?
        for n in 20..<5_000 {
            let event = next(n)
            do {
                acknowledged[try await log.append(to: "s-\(n)", expectedVersion: .noStream, events: [event]).lastPosition] = event.id
            } catch let full as StorageFullError {
                refusal = full
                break
            }
        }
        let full = try #require(refusal)
        #expect([.eventLog, .logIndex].contains(full.store))
        #expect(full.path.hasPrefix(disk.url.path))
        #expect(full.description.contains("no space left on device"))
        #expect(log.storageFailure?.error.store == full.store)

        // Nothing partial: a refused append of several streams leaves none of them.
        let head = log.headPosition
        await #expect(throws: StorageFullError.self) {
            try await log.append([
                StreamAppend(streamId: "pair-a", expectedVersion: .noStream, events: [next(0), next(1)]),
                StreamAppend(streamId: "pair-b", expectedVersion: .noStream, events: [next(2)]),
            ])
        }
        #expect(log.headPosition == head)
        #expect(try log.streamVersion("pair-a") == 0)

        try FileManager.default.removeItem(at: filler)
        let resumed = next(0)
        acknowledged[try await log.append(to: "after", expectedVersion: .noStream, events: [resumed]).lastPosition] = resumed.id
        #expect(log.storageFailure == nil)

        let recorded = try log.read(from: 1, limit: .max)
        #expect(recorded.map(\.position) == Array(1...log.headPosition))
        for (position, id) in acknowledged { #expect(recorded[Int(position) - 1].id == id) }
    }
}
