import Foundation
import ChildProcesses
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `<product> replay --data-dir` as a child process (the server stopped), to be killed or waited for.
final class OfflineReplay: Sendable {
    private let process: ChildProcess

    init(_ product: String = "nuvie", dataDirectory: URL) throws {
        process = try ChildProcess(
            executable: ServerProcess.binary(product), arguments: ["replay", "--data-dir", dataDirectory.path, "--log-level", "warning"],
            environment: ProcessInfo.processInfo.environment, output: URL(fileURLWithPath: "/dev/null")
        )
    }

    var isRunning: Bool { process.isRunning }

    /// SIGKILL, unless it has exited already (its pid is not reused before it is reaped).
    func kill9() async {
        process.signal(SIGKILL)
        await process.exited()
    }

    /// Waits (at most `limit`) for it to finish; its exit status, or nil when it had to be killed.
    func wait(limit: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        guard !process.isRunning else {
            await kill9()
            return nil
        }
        return process.waitUntilExit()
    }
}

extension OfflineReplay {
    /// An offline replay left to finish (the server stopped): how long it took, start-up included.
    static func time(_ product: String = "nuvie", dataDirectory: URL) async throws -> Duration {
        let started = ContinuousClock.now
        #expect(try await OfflineReplay(product, dataDirectory: dataDirectory).wait(limit: .seconds(600)) == 0)
        return ContinuousClock.now - started
    }
}

extension ServerProcess {
    /// The demo admin token the server generated in its data directory.
    static func adminToken(dataDirectory: URL) throws -> String {
        try String(contentsOf: dataDirectory.appendingPathComponent("admin-token"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `POST /admin/replay` for every projection: nil when the server accepted it (202), else its
    /// status and body, for the failure message.
    func startReplay(adminToken: String) async throws -> String? {
        let reply = try await post("/admin/replay", "{}", headers: ["X-Admin-Token": adminToken])
        return reply.status == 202 ? nil : "\(reply.status) \(reply.text)"
    }

    /// Polls `GET /admin/replay` until it is no longer running (at most `limit`); its final state.
    func waitForReplay(adminToken: String, limit: Duration) async throws -> String {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let state = try await get("/admin/replay", headers: ["X-Admin-Token": adminToken]).json["state"] as? String ?? "?"
            if state != "running" { return state }
            try await Task.sleep(for: .milliseconds(20))
        }
        return "still running after \(limit)"
    }

    /// A replay in the server left to finish: how long it took.
    func timeReplay(adminToken: String) async throws -> Duration {
        let started = ContinuousClock.now
        #expect(try await startReplay(adminToken: adminToken) == nil)
        #expect(try await waitForReplay(adminToken: adminToken, limit: .seconds(600)) == "finished")
        return ContinuousClock.now - started
    }

    /// Waits (at most `limit`) until `/health` reports every projection caught up.
    func waitUntilCaughtUp(limit: Duration = .seconds(120)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await get("/health").json["status"] as? String == "ok" { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
