import ArgumentParser
import AsyncHTTPClient
import ChildProcesses
import Foundation
import Hummingbird
import NIOCore
import NuvieApp
import NuvieMovieLens

/// `nuvie-bench http`: the demo server (`nuvie serve`, a child process) under `wrk`, each hot endpoint
/// beside a bare Hummingbird "hello" route (in this process) measured in the same run, plus the
/// server's peak memory.
struct HTTPBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Serve the demo and load it with wrk: hello baseline, GET /movies/{id}, /feed/activities, /movies/search, /feed/recommendations, POST /movies/{id}/rate.",
        discussion: "Needs wrk on PATH (Debian: apt-get install wrk). The demo is imported into --data-dir first unless it holds a log already."
    )

    @Option(help: "Where the demo lives (imported when empty). Default: a temporary directory.")
    var dataDir: String?

    @Option(help: "Port for the server; the hello baseline listens on the next one.")
    var port = 18080

    @Option(help: "wrk connections.")
    var connections = 64

    @Option(help: "Seconds per wrk run.")
    var duration = 10

    @Option(help: "Runs per endpoint.")
    var runs = 3

    @Option(help: "Only the endpoints whose name contains this (hello always runs).")
    var only: String?

    func validate() throws {
        guard runs >= 1, duration >= 1, connections >= 1 else { throw ValidationError("--runs, --duration and --connections must be at least 1") }
    }

    func run() async throws {
        NuvieBench.bootstrapLogging()
        let wrk = try HTTPBench.wrk()
        let scratch = try BenchFigures.scratchDirectory("http")
        defer { try? FileManager.default.removeItem(at: scratch) }

        let dataDirectory = dataDir.map { URL(fileURLWithPath: $0) } ?? scratch.appendingPathComponent("data")
        let base = "http://127.0.0.1:\(port)"
        // The first start imports the demo (into an empty directory); the measured server is a
        // second start over the same directory, as a production server would be.
        BenchFigures.progress("preparing the demo in \(dataDirectory.path)")
        try await ServerChild(dataDirectory: dataDirectory, port: port).stopAfterServing("\(base)/health")
        let server = try ServerChild(dataDirectory: dataDirectory, port: port)
        defer { server.stop() }
        let hello = Task { try await Self.helloApplication(port: port + 1).runService(gracefulShutdownSignals: []) }
        defer { hello.cancel() }
        try await Self.waitUntilServing("\(base)/health")
        try await Self.waitUntilServing("http://127.0.0.1:\(port + 1)/hello")
        let token = try await Self.login(base)
        let memory = MemorySampler(pid: server.pid)
        memory.start()

        let movieIds = Array(try Self.movieIds(try DemoDataset.locate(nil)).prefix(2000))
        let targets: [(name: String, connections: Int, script: String)] = [
            ("hello", connections, Self.script(token: nil, request: #"return wrk.format("GET", "/hello")"#)),
            ("GET /movies/{id}", connections, Self.script(token: token, ids: movieIds, request: #"return wrk.format("GET", "/movies/" .. ids[math.random(#ids)], headers)"#)),
            ("GET /feed/activities", connections, Self.script(token: token, request: #"return wrk.format("GET", "/feed/activities?limit=20", headers)"#)),
            ("GET /movies/search?q=star", connections, Self.script(token: token, request: #"return wrk.format("GET", "/movies/search?q=star&limit=20", headers)"#)),
            ("GET /feed/recommendations", connections, Self.script(token: token, request: #"return wrk.format("GET", "/feed/recommendations?limit=20", headers)"#)),
            ("GET /feed/recommendations", 16, Self.script(token: token, request: #"return wrk.format("GET", "/feed/recommendations?limit=20", headers)"#)),
            ("POST /movies/{id}/rate", connections, Self.script(token: token, ids: movieIds, request: """
                headers["Content-Type"] = "application/json"
                return wrk.format("POST", "/movies/" .. ids[math.random(#ids)] .. "/rate", headers, '{"rating":' .. math.random(5) .. '}')
                """)),
        ]
        var lines: [String] = []
        var helloMedian = 0.0
        for target in targets where target.name == "hello" || only.map({ target.name.contains($0) }) ?? true {
            let scriptFile = scratch.appendingPathComponent("bench-\(UUID().uuidString).lua")
            try Data(target.script.utf8).write(to: scriptFile)
            let url = target.name == "hello" ? "http://127.0.0.1:\(port + 1)" : base
            var rates: [Double] = [], p99s: [Double] = []
            for run in 1...runs {
                let result = try Self.wrk(wrk, url: url, script: scriptFile.path, connections: target.connections, seconds: duration, in: scratch)
                rates.append(result.requestsPerSecond)
                p99s.append(result.p99Milliseconds)
                BenchFigures.progress("\(target.name) c\(target.connections) run \(run)/\(runs): \(Int(result.requestsPerSecond)) req/s, p99 \(result.p99Milliseconds) ms, non-2xx \(result.errors)")
            }
            let median = rates.sorted()[rates.count / 2]
            if target.name == "hello" { helloMedian = median }
            let share = helloMedian > 0 ? String(format: "%3.0f %% of hello", median / helloMedian * 100) : ""
            lines.append(BenchFigures.line("\(target.name) c\(target.connections) req/s", rates, format: "%.0f") + "   \(share)")
            lines.append(BenchFigures.line("\(target.name) c\(target.connections) p99 ms", p99s, format: "%.2f"))
        }
        memory.stop()
        print("wrk -t2 -c<N> -d\(duration)s, \(runs) runs each (min / median / max), demo data, release build")
        for line in lines { print(line) }
        print(String(
            format: "server process while loaded: peak RSS %.0f MB (anonymous memory %.0f MB, mapped files %.0f MB: the LMDB log and SQLite)",
            Double(memory.peak.total) / 1024, Double(memory.peak.anonymous) / 1024, Double(memory.peak.files) / 1024
        ))
    }

    static func helloApplication(port: Int) -> some ApplicationProtocol {
        let router = Router()
        router.get("hello") { _, _ in "hello" }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
    }

    static func script(token: String?, ids: [Int64] = [], request: String) -> String {
        """
        headers = {}
        \(token.map { "headers[\"Authorization\"] = \"Bearer \($0)\"" } ?? "")
        ids = {\(ids.map(String.init).joined(separator: ","))}
        request = function()
        \(request)
        end
        """
    }

    struct WrkResult {
        var requestsPerSecond: Double
        var p99Milliseconds: Double
        var errors: Int
    }

    static func wrk(_ executable: String, url: String, script: String, connections: Int, seconds: Int, in scratch: URL) throws -> WrkResult {
        let outputFile = scratch.appendingPathComponent("wrk-\(UUID().uuidString).txt")
        let process = try ChildProcess(
            executable: URL(fileURLWithPath: executable), arguments: ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency", "-s", script, url],
            environment: ProcessInfo.processInfo.environment, output: outputFile
        )
        process.waitUntilExit()
        let output = try String(contentsOf: outputFile, encoding: .utf8)
        guard let rate = output.firstMatch(of: /Requests\/sec:\s+([\d.]+)/).flatMap({ Double($0.1) }),
              let p99 = output.firstMatch(of: /99%\s+([\d.]+)(us|ms|s)/)
        else { throw ValidationError("could not read wrk's output:\n\(output)") }
        let scale = p99.2 == "us" ? 0.001 : p99.2 == "s" ? 1000 : 1
        let errors = output.firstMatch(of: /Non-2xx or 3xx responses:\s+(\d+)/).flatMap { Int($0.1) } ?? 0
        return WrkResult(requestsPerSecond: rate, p99Milliseconds: (Double(p99.1) ?? 0) * scale, errors: errors)
    }

    /// wrk's path, or a refusal that says how to install it.
    static func wrk() throws -> String {
        guard let wrk = executable("wrk") else { throw ValidationError("wrk is not on PATH: apt-get install wrk") }
        return wrk
    }

    static func executable(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func waitUntilServing(_ url: String) async throws {
        for _ in 0..<600 {
            if let response = try? await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(1)), response.status == .ok { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ValidationError("\(url) did not answer")
    }

    /// A demo user's access token, through the dev sign-in.
    static func login(_ base: String, user: String = "movielens-1") async throws -> String {
        var request = HTTPClientRequest(url: "\(base)/auth/login")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"provider":"dev","user_identifier":"\#(user)"}"#))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard let json = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any], let token = json["access_token"] as? String else {
            throw ValidationError("dev login of \(user) failed (\(response.status.code))")
        }
        return token
    }

    static func movieIds(_ dataset: URL) throws -> [Int64] {
        try MovieLensDataset.movieRows(dataset.appendingPathComponent("movies.csv")).movies.map(\.movieId)
    }
}

/// The server as its own process (`nuvie serve --demo`), as it runs in production: the `nuvie` built
/// beside this binary.
final class ServerChild: Sendable {
    private let process: ChildProcess

    var pid: Int32 { process.pid }

    init(dataDirectory: URL, port: Int, environment more: [String: String] = [:]) throws {
        var environment = ProcessInfo.processInfo.environment.merging(more) { _, given in given }
        environment["NUVIE_RATE_LIMIT_PER_MINUTE"] = "0"
        environment["NUVIE_LOG_LEVEL"] = "warning"
        process = try ChildProcess(
            executable: try NuvieExecutable.url(), arguments: ["serve", "--demo", "--data-dir", dataDirectory.path, "--port", "\(port)"],
            environment: environment, output: nil
        )
    }

    func stopAfterServing(_ healthURL: String) async throws {
        defer { stop() }
        try await HTTPBench.waitUntilServing(healthURL)
    }

    func stop() {
        guard process.isRunning else { return }
        process.signal(SIGTERM)
        process.waitUntilExit()
    }
}

/// Samples a process's resident memory every 100 ms: the peak of VmRSS, and of its anonymous and
/// file-backed parts.
final class MemorySampler: @unchecked Sendable {
    private let pid: Int32
    private let lock = NSLock()
    private var highest = ProcessMemory()
    private var running = false

    init(pid: Int32) {
        self.pid = pid
    }

    var peak: ProcessMemory { lock.withLock { highest } }

    /// The peak so far, and a fresh start for the next.
    func takePeak() -> ProcessMemory {
        lock.withLock {
            defer { highest = ProcessMemory() }
            return highest
        }
    }

    func start() {
        lock.withLock { running = true }
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let now = ProcessMemory.read(pid: pid)
                lock.withLock {
                    highest.total = max(highest.total, now.total)
                    highest.anonymous = max(highest.anonymous, now.anonymous)
                    highest.files = max(highest.files, now.files)
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    func stop() {
        lock.withLock { running = false }
    }
}
