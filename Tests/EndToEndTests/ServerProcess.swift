import AsyncHTTPClient
import Foundation
import ChildProcesses
import TestSupport
import NIOCore
import NIOHTTP1
import Testing
#if canImport(Glibc)
import Glibc
#endif


/// A product's real binary (`nuvie` unless told), started as a child process over a data directory.
final class ServerProcess: Sendable {
    let process: ChildProcess
    let port: Int
    let baseURL: String
    /// Where the server's standard output and error go.
    let output: URL

    /// The `nuvie` built next to the test bundle (`swift build --build-tests` builds it too).
    static var binary: URL { binary("nuvie") }

    /// A product's executable: in `E2E_BIN_DIR` when set (a long run against release binaries),
    /// else the one built next to the test bundle.
    static func binary(_ name: String) -> URL {
        if let directory = ProcessInfo.processInfo.environment["E2E_BIN_DIR"] {
            return URL(fileURLWithPath: directory).appendingPathComponent(name)
        }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return repositoryRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// `nuvie serve` in demo mode over the tiny MovieLens fixture, started and healthy. Its output
    /// goes beside the data directory unless `outputDirectory` says where.
    static func demo(dataDirectory: URL, outputDirectory: URL? = nil, environment: [String: String] = [:]) async throws -> ServerProcess {
        try await start(outputDirectory: outputDirectory ?? dataDirectory.deletingLastPathComponent(), environment: environment) { port in
            demoArguments(dataDirectory: dataDirectory, port: port)
        }
    }

    static func demoArguments(
        dataDirectory: URL, port: Int, dataset: URL = repositoryRoot.appendingPathComponent("replay-fixtures/movielens-tiny"), logLevel: String = "warning"
    ) -> [String] {
        ["serve", "--data-dir", dataDirectory.path, "--port", "\(port)", "--demo", "--demo-dataset", dataset.path, "--log-level", logLevel]
    }

    /// Starts the command without waiting for it to serve (it may exit, or take long to start).
    static func launch(
        _ executable: String = "nuvie", outputDirectory: URL, environment: [String: String] = [:], arguments: (Int) -> [String]
    ) throws -> ServerProcess {
        let port = Int.random(in: 10_000..<32_000)
        return try ServerProcess(binary(executable), arguments: arguments(port), port: port, outputDirectory: outputDirectory, environment: environment)
    }

    /// `scripts/serve-cluster.sh` serving `product` on `nodes` nodes in `directory`, healthy through
    /// nginx, whose port this process's requests go to.
    static func cluster(
        _ product: String, nodes: Int, directory: URL, options: [String] = [], environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        let port = Int.random(in: 10_000..<32_000)
        let script = try ServerProcess(
            repositoryRoot.appendingPathComponent("scripts/serve-cluster.sh"),
            arguments: ["--product", product, "--nodes", "\(nodes)", "--port", "\(port)", "--dir", directory.path] + options,
            port: port, outputDirectory: directory, environment: environment
        )
        // Not /health on the port: nginx answers a moment before the script prints the nodes' ports,
        // and another test's server may hold the port until nginx takes it. Ready is what it says.
        let deadline = ContinuousClock.now + .seconds(300)
        while !script.everythingSaid().contains("Ctrl-C stops the nodes"), script.process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        try #require(script.everythingSaid().contains("Ctrl-C stops the nodes"), "serve-cluster.sh did not say it was ready: \(script.said())")
        #expect(try await script.get("/health").status == 200)
        return script
    }

    /// Any `nuvie` command that serves on the port it is given, started and healthy. Ports are drawn
    /// below Linux's ephemeral range (where outgoing connections take theirs); a port another process
    /// holds anyway is retried with a new one.
    static func start(
        _ executable: String = "nuvie", outputDirectory: URL, environment: [String: String] = [:], timeout: Duration = .seconds(60),
        arguments: (Int) -> [String]
    ) async throws -> ServerProcess {
        for _ in 0..<5 {
            let port = Int.random(in: 10_000..<32_000)
            let server = try ServerProcess(
                binary(executable), arguments: arguments(port), port: port, outputDirectory: outputDirectory, environment: environment
            )
            switch try await server.waitUntilHealthy(timeout: timeout) {
            case .healthy: return server
            case .portTaken: continue
            }
        }
        Issue.record("no free port found in five tries")
        throw CancellationError()
    }

    private init(_ executable: URL, arguments: [String], port: Int, outputDirectory: URL, environment: [String: String] = [:]) throws {
        self.port = port
        baseURL = "http://127.0.0.1:\(port)"
        output = outputDirectory.appendingPathComponent("server-\(port)-\(UUID().uuidString).log")
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        process = try ChildProcess(
            executable: executable, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(["NUVIE_RATE_LIMIT_PER_MINUTE": "0"].merging(environment) { $1 }) { $1 },
            output: output
        )
    }

    private enum Start { case healthy, portTaken }

    private func waitUntilHealthy(timeout: Duration) async throws -> Start {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if !process.isRunning, said().contains("Address already in use") { return .portTaken }
            // Another test's server may hold the port and answer: only our own process counts.
            if let health = try? await get("/health"), health.status == 200, Self.listens(process.pid, on: port) { return .healthy }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("server on port \(port) did not become healthy (running: \(process.isRunning)); its output ends:\n\(said())")
        throw CancellationError()
    }

    /// Whether process `pid` holds the listening TCP socket of `port` (Linux: `/proc/net/tcp{,6}` name
    /// the socket's inode, the process's descriptors link to `socket:[inode]`).
    static func listens(_ pid: pid_t, on port: Int) -> Bool {
        let hexPort = String(format: ":%04X", port)
        let table = ["/proc/net/tcp", "/proc/net/tcp6"].compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.joined(separator: "\n")
        let inodes = Set(table.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            // local address, state (0A: LISTEN), inode
            guard fields.count > 9, fields[1].hasSuffix(hexPort), fields[3] == "0A" else { return nil }
            return "socket:[\(fields[9])]"
        })
        let descriptors = "/proc/\(pid)/fd"
        guard !inodes.isEmpty, let entries = try? FileManager.default.contentsOfDirectory(atPath: descriptors) else { return false }
        return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)")).map(inodes.contains) ?? false }
    }

    private func said() -> String {
        String(everythingSaid().suffix(4_000))
    }

    /// The server's whole output so far.
    func everythingSaid() -> String {
        (try? String(contentsOf: output, encoding: .utf8)) ?? "(no output)"
    }

    /// The exit status once the process has exited within `timeout`; nil while it still runs.
    func waitForExit(timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        return process.isRunning ? nil : process.waitUntilExit()
    }

    /// SIGKILL, and reaped, without holding a thread of Swift's cooperative pool (two on this
    /// machine: a test blocked in `waitpid` there stalls every in-process server of the suite).
    func kill9() async {
        process.signal(SIGKILL)
        await process.exited()
    }

    /// SIGKILL as soon as the output holds `line` (or after two minutes, or at once if it has
    /// exited), watched from a thread of its own: not the test pool, which other tests keep busy.
    func kill9(whenOutputContains line: String) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let watcher = Thread {
                let deadline = Date(timeIntervalSinceNow: 120)
                while !self.everythingSaid().contains(line), self.process.isRunning, Date() < deadline { usleep(5_000) }
                // A thread of its own, not the cooperative pool: it may block in waitpid.
                self.process.signal(SIGKILL)
                self.process.waitUntilExit()
                done.resume()
            }
            watcher.start()
        }
    }

    /// SIGTERM, and waits for the graceful shutdown, off the cooperative pool.
    func stop() async {
        process.signal(SIGTERM)
        await process.exited()
    }

    /// SIGTERM from a `defer`, which cannot wait: the child is reaped on a thread of its own.
    func stopWhenLeaving() {
        process.signal(SIGTERM)
        let process = process
        Thread.detachNewThread { _ = process.waitUntilExit() }
    }

    struct Reply: @unchecked Sendable {
        var status: UInt
        var json: [String: Any]
        /// Header names in lower case.
        var headers: [String: String] = [:]
        var text = ""
    }

    func get(_ path: String, token: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        try await send(.GET, path, token: token, body: nil, headers: headers)
    }

    func post(_ path: String, _ body: String, token: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        try await send(.POST, path, token: token, body: body, headers: headers)
    }

    func patch(_ path: String, _ body: String, token: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        try await send(.PATCH, path, token: token, body: body, headers: headers)
    }

    func put(_ path: String, _ body: String, token: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        try await send(.PUT, path, token: token, body: body, headers: headers)
    }

    func delete(_ path: String, _ body: String? = nil, token: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        try await send(.DELETE, path, token: token, body: body, headers: headers)
    }

    private func send(_ method: HTTPMethod, _ path: String, token: String?, body: String?, headers: [String: String]) async throws -> Reply {
        try await Self.send(method, baseURL + path, token: token, body: body, headers: headers)
    }

    /// A request to any server, a node behind nginx say, answered as `Reply`.
    static func send(_ method: HTTPMethod, _ url: String, token: String? = nil, body: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            if !request.headers.contains(name: "Content-Type") { request.headers.add(name: "Content-Type", value: "application/json") }
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 256 << 20)
        let json = (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))) as? [String: Any] ?? [:]
        let headers = Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
        return Reply(status: response.status.code, json: json, headers: headers, text: String(buffer: bytes))
    }
}
