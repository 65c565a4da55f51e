import Foundation
import TestSupport
import Testing

/// One server per data directory, told by a lock on `server.pid` that goes with its process: a second
/// server is refused before it opens anything (it had taken the file over and removed it on exit,
/// leaving offline tools free to run under the first), and neither a copy of the directory nor one
/// whose server was killed counts as served.
@Suite(.timeLimit(.minutes(4))) struct ServerLockTests {
    @Test func aSecondServerIsRefusedAndOnlyALiveServersLockCounts() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let first = try await Self.savry(data, in: directory.url)
        defer { first.stopWhenLeaving() }
        let pidFile = data.appendingPathComponent("server.pid")
        let pid = try String(contentsOf: pidFile, encoding: .utf8)

        let second = try await runProduct("savry", ["serve", "--data-dir", data.path, "--port", "0"])
        #expect(second.status != 0 && second.output.contains("already serves"), "\(second.output)")
        #expect(try String(contentsOf: pidFile, encoding: .utf8) == pid)
        let replay = try await runProduct("savry", ["replay", "--data-dir", data.path])
        #expect(replay.status != 0 && replay.output.contains("is serving"), "\(replay.output)")

        let copy = directory.url.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: data, to: copy)
        let replayOfCopy = try await runProduct("savry", ["replay", "--data-dir", copy.path])
        #expect(replayOfCopy.status == 0, "\(replayOfCopy.output)")

        await first.kill9()
        #expect(FileManager.default.fileExists(atPath: pidFile.path))
        let afterKill = try await runProduct("savry", ["replay", "--data-dir", data.path])
        #expect(afterKill.status == 0, "\(afterKill.output)")
        let restarted = try await Self.savry(data, in: directory.url)
        await restarted.stop()
        #expect(!FileManager.default.fileExists(atPath: pidFile.path))
    }

    /// A port in use is said first, with the address, before anything is made (it was said in NIO's
    /// words once the demo was imported, beside a new directory marked as a demo).
    @Test func aServerOnAPortInUseIsRefusedBeforeItMakesAnything() async throws {
        let directory = try TemporaryDirectory()
        let first = try await Self.savry(directory.url.appendingPathComponent("a"), in: directory.url)
        defer { first.stopWhenLeaving() }
        let other = directory.url.appendingPathComponent("b")
        let refused = try await runProduct("savry", ["serve", "--data-dir", other.path, "--port", "\(first.port)"])
        #expect(refused.status != 0 && refused.output.contains("cannot listen on 127.0.0.1:\(first.port): Address already in use"), "\(refused.output)")
        #expect(!FileManager.default.fileExists(atPath: other.path))
    }

    static func savry(_ data: URL, in directory: URL) async throws -> ServerProcess {
        try await ServerProcess.start("savry", outputDirectory: directory) { port in
            ["serve", "--data-dir", data.path, "--port", "\(port)", "--log-level", "warning"]
        }
    }
}
