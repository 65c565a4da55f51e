import ChildProcesses
import Foundation

/// Runs any command to its end, as a child process; its exit status and everything it printed (from
/// a file: a server the command starts may keep a pipe open).
public func runCommand(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(executable.lastPathComponent)-run-\(UUID().uuidString).log")
    defer { try? FileManager.default.removeItem(at: output) }
    let process = try ChildProcess(
        executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, output: output
    )
    let status = await process.exited()
    return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
}

public struct ScriptFailed: Error, CustomStringConvertible {
    public let description: String
}

extension TestPostgres {
    /// `scripts/postgres.sh COMMAND CLUSTER…` (start, stop, resume, kill, promote, standby, role), to
    /// its end: what it printed.
    public static func script(_ command: String, _ clusters: URL...) async throws -> String {
        let (status, said) = try await runCommand(
            URL(fileURLWithPath: "/bin/bash"), [repositoryRoot.appendingPathComponent("scripts/postgres.sh").path, command] + clusters.map(\.path)
        )
        guard status == 0 else { throw ScriptFailed(description: "scripts/postgres.sh \(command) exited \(status): \(said)") }
        return said
    }

}

/// A PostgreSQL server of the test's own (`scripts/postgres.sh start`), its cluster in `directory`,
/// which the test may stop, resume or kill with `TestPostgres.script(_:_:)` on `cluster`.
public struct OwnPostgresServer: Sendable {
    public let directory: TemporaryDirectory
    public let cluster: URL
    public let url: String

    public static func start() async throws -> OwnPostgresServer {
        let directory = try TemporaryDirectory()
        let cluster = directory.url.appendingPathComponent("postgres")
        let started = try await TestPostgres.script("start", cluster)
        guard let url = started.split(separator: "\n").last(where: { $0.hasPrefix("postgres://") }) else {
            throw ScriptFailed(description: "scripts/postgres.sh start printed no URL: \(started)")
        }
        return OwnPostgresServer(directory: directory, cluster: cluster, url: String(url))
    }

    /// Stops the server once the test has left it (`defer`), without holding the test up.
    public func stopWhenLeaving() {
        let cluster = cluster
        Task { _ = try? await TestPostgres.script("stop", cluster) }
    }
}
