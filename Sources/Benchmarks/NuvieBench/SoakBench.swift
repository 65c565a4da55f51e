import ArgumentParser
import AsyncHTTPClient
import ChildProcesses
import Foundation
import NIOCore
import NuvieApp
import ReadModels

/// `nuvie-bench soak`: the demo server (a child process) under `wrk` for a long run of mixed reads
/// and writes from many signed-in users. Fails unless every response was 2xx with no socket error,
/// every projection is back to lag 0 after the load, and `nuvie verify` (server stopped) finds the
/// read models identical to a rebuild. Prints the server's RSS along the way.
struct SoakBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Serve the demo and load it with wrk for --duration seconds: mixed reads and writes from --users users; then check errors, lag and verify.",
        discussion: "Needs wrk on PATH (Debian: apt-get install wrk). The demo is imported into --data-dir first unless it holds a log already."
    )

    @Option(help: "Where the demo lives (imported when empty). Default: a temporary directory, removed afterwards.")
    var dataDir: String?

    @Option(help: "Port for the server.")
    var port = 18090

    @Option(help: "wrk connections.")
    var connections = 64

    @Option(help: "Seconds of load.")
    var duration = 600

    @Option(help: "Demo users (movielens-1 … movielens-N) whose tokens the requests carry.")
    var users = 200

    @Option(help: "Seconds between RSS and lag samples while loaded.")
    var sampleEvery = 30

    @Option(help: "Seconds wrk may wait for one response before counting a timeout.")
    var requestTimeout = 10

    func validate() throws {
        guard duration >= 1, connections >= 1, sampleEvery >= 1, requestTimeout >= 1 else {
            throw ValidationError("--duration, --connections, --sample-every and --request-timeout must be at least 1")
        }
        guard (1...600).contains(users) else { throw ValidationError("--users must be 1…600 (the demo has 610)") }
    }

    func run() async throws {
        NuvieBench.bootstrapLogging()
        let wrk = try HTTPBench.wrk()
        let scratch = try BenchFigures.scratchDirectory("soak")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dataDirectory = dataDir.map { URL(fileURLWithPath: $0) } ?? scratch.appendingPathComponent("data")
        let base = "http://127.0.0.1:\(port)"

        BenchFigures.progress("preparing the demo in \(dataDirectory.path)")
        try await ServerChild(dataDirectory: dataDirectory, port: port).stopAfterServing("\(base)/health")
        let server = try ServerChild(dataDirectory: dataDirectory, port: port)
        defer { server.stop() }
        try await HTTPBench.waitUntilServing("\(base)/health")
        let tokens = try await (1...users).asyncMap { try await HTTPBench.login(base, user: "movielens-\($0)") }
        let movieIds = Array(try HTTPBench.movieIds(try DemoDataset.locate(nil)).prefix(2000))
        let scriptFile = scratch.appendingPathComponent("soak.lua")
        try Data(SoakScript.lua(tokens: tokens, movieIds: movieIds).utf8).write(to: scriptFile)

        let startHealth = try await SoakHealth.read(base)
        let startMemory = ProcessMemory.read(pid: server.pid)
        BenchFigures.progress("start: head \(startHealth.head), RSS \(startMemory.description); \(connections) connections, \(users) users, \(duration) s")
        let load = try SoakLoad.start(wrk, url: base, script: scriptFile.path, connections: connections, seconds: duration, timeout: requestTimeout)
        var samples: [String] = []
        let loadStarted = ContinuousClock.now
        while load.isRunning, ContinuousClock.now - loadStarted < .seconds(duration + 120) {
            try await Task.sleep(for: .seconds(min(sampleEvery, max(1, duration))))
            guard load.isRunning else { break }
            let health = try? await SoakHealth.read(base)
            let gauges = (try? await HeapGauges.read(base)) ?? "gauges unread"
            let line = "t+\(Int((ContinuousClock.now - loadStarted).seconds)) s: RSS \(ProcessMemory.read(pid: server.pid).description), \(gauges), head \(health?.head ?? 0), max lag \(health?.maxLag ?? 0)"
            samples.append(line)
            BenchFigures.progress(line)
        }
        let report = try load.finish()
        let endOfLoad = try await SoakHealth.read(base)
        let caughtUp = try await SoakHealth.waitForZeroLag(base, within: .seconds(300))
        let endMemory = ProcessMemory.read(pid: server.pid)
        server.stop()
        let verify = try SoakVerify.run(dataDirectory: dataDirectory, in: scratch)

        print("soak: wrk -t2 -c\(connections) -d\(duration)s --timeout \(requestTimeout)s, \(users) users, demo data, \(Self.buildConfiguration) build")
        print("mix: 30 % GET /movies/{id}, 15 % GET /feed/activities, 15 % GET /movies/search, 15 % GET /movies/{id}/reviews, 15 % POST /movies/{id}/rate, 10 % POST /movies/{id}/watchlist")
        print(report.summary)
        print("RSS start \(startMemory.description); end \(endMemory.description)")
        for line in samples { print("  \(line)") }
        print("log head \(startHealth.head) -> \(endOfLoad.head) (+\(endOfLoad.head - startHealth.head) events); max projection lag when the load stopped \(endOfLoad.maxLag); " +
              (caughtUp.map { "all projections at lag 0 \(String(format: "%.1f", $0.seconds)) s later" } ?? "lag NOT back to 0 within 300 s"))
        print("nuvie verify: \(verify.output.trimmingCharacters(in: .whitespacesAndNewlines)) (exit \(verify.status))")
        let passed = report.errors == 0 && report.requests > 0 && caughtUp != nil && verify.status == 0
        print(passed ? "PASS" : "FAIL")
        if !passed { throw ExitCode(1) }
    }
}

extension ClosedRange<Int> {
    func asyncMap<T>(_ transform: (Int) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for value in self { results.append(try await transform(value)) }
        return results
    }
}

/// `/health`: the log head and the largest projection lag.
struct SoakHealth {
    var head: Int
    var maxLag: Int

    static func read(_ base: String) async throws -> SoakHealth {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "\(base)/health"), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard let json = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
              let head = json["log_head_position"] as? Int, let projections = json["projections"] as? [[String: Any]]
        else { throw ValidationError("unexpected /health answer (\(response.status.code))") }
        return SoakHealth(head: head, maxLag: projections.compactMap { $0["lag"] as? Int }.max() ?? 0)
    }

    /// How long until every projection's lag is 0, or nil if not within `limit`.
    static func waitForZeroLag(_ base: String, within limit: Duration) async throws -> Duration? {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < limit {
            if try await read(base).maxLag == 0 { return ContinuousClock.now - started }
            try await Task.sleep(for: .milliseconds(200))
        }
        return nil
    }
}

/// From `/metrics`, what the heap holds that the server measures itself: SQLite's page caches, the
/// states kept between decisions and the recommendation model's weights.
enum HeapGauges {
    static let gauges = [("SQLite", "nuvie_sqlite_memory_bytes"), ("states", "nuvie_folded_states_bytes"), ("model", "nuvie_recommendation_model_bytes")]

    static func read(_ base: String) async throws -> String {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "\(base)/metrics"), timeout: .seconds(10))
        let lines = String(buffer: try await response.body.collect(upTo: 16 << 20)).split(separator: "\n")
        return gauges.map { name, metric in
            let bytes = lines.first { $0.hasPrefix(metric + " ") }.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
            return bytes.map { "\(name) \(String(format: "%.1f", $0 / 1_048_576)) MB" } ?? "\(name) unread"
        }.joined(separator: ", ")
    }
}

/// `nuvie verify --data-dir` run as its own process, as an operator would after stopping the server.
enum SoakVerify {
    static func run(dataDirectory: URL, in scratch: URL) throws -> (status: Int32, output: String) {
        let outputFile = scratch.appendingPathComponent("verify-output.txt")
        let process = try ChildProcess(
            executable: try NuvieExecutable.url(), arguments: ["verify", "--data-dir", dataDirectory.path, "--log-level", "warning"],
            environment: ProcessInfo.processInfo.environment, output: outputFile
        )
        let status = process.waitUntilExit()
        return (status, try String(contentsOf: outputFile, encoding: .utf8))
    }
}

extension SoakBench {
    #if DEBUG
    static let buildConfiguration = "debug"
    #else
    static let buildConfiguration = "release"
    #endif
}
