import App
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import Projections

/// `nuvie bench http`: the demo server (release build, in this process) under `wrk`, each hot endpoint
/// beside a bare Hummingbird "hello" route measured in the same run, plus the server's peak RSS.
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

    func run() async throws {
        _ = Bootstrap.logging(level: "warning")
        let registry = Bootstrap.metrics()
        guard let wrk = Self.executable("wrk") else { throw ValidationError("wrk is not on PATH: apt-get install wrk") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-bench-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        var configuration = AppConfiguration(
            dataDirectory: dataDir.map { URL(fileURLWithPath: $0) } ?? scratch.appendingPathComponent("data"),
            port: port, demoMode: true, demoDataset: try DemoMode.dataset(nil), rateLimit: nil, metricsRegistry: registry
        )
        configuration.modelRetrainInterval = .seconds(3600)
        progress("starting the demo server (imports the demo into an empty directory first)")
        let app = try await buildApplication(configuration: configuration)
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        let hello = Task { try await Self.helloApplication(port: port + 1).runService(gracefulShutdownSignals: []) }
        defer { server.cancel(); hello.cancel() }
        let base = "http://127.0.0.1:\(port)"
        try await Self.waitUntilServing("\(base)/health")
        try await Self.waitUntilServing("http://127.0.0.1:\(port + 1)/hello")
        let token = try await Self.login(base)
        let rss = RSSSampler()
        rss.start()

        let movieIds = Array(try Self.movieIds(try DemoMode.dataset(nil)).prefix(2000))
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
                let result = try Self.wrk(wrk, url: url, script: scriptFile.path, connections: target.connections, seconds: duration)
                rates.append(result.requestsPerSecond)
                p99s.append(result.p99Milliseconds)
                progress("\(target.name) c\(target.connections) run \(run)/\(runs): \(Int(result.requestsPerSecond)) req/s, p99 \(result.p99Milliseconds) ms, non-2xx \(result.errors)")
            }
            let median = rates.sorted()[rates.count / 2]
            if target.name == "hello" { helloMedian = median }
            let share = helloMedian > 0 ? String(format: "%3.0f %% of hello", median / helloMedian * 100) : ""
            lines.append(BenchFigures.line("\(target.name) c\(target.connections) req/s", rates, format: "%.0f") + "   \(share)")
            lines.append(BenchFigures.line("\(target.name) c\(target.connections) p99 ms", p99s, format: "%.2f"))
        }
        rss.stop()
        print("wrk -t2 -c<N> -d\(duration)s, \(runs) runs each (min / median / max), demo data, release build")
        for line in lines { print(line) }
        print(String(format: "peak RSS of the server process while loaded: %.0f MB", Double(rss.peakKilobytes) / 1024))
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

    static func wrk(_ executable: String, url: String, script: String, connections: Int, seconds: Int) throws -> WrkResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency", "-s", script, url]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let rate = output.firstMatch(of: /Requests\/sec:\s+([\d.]+)/).flatMap({ Double($0.1) }),
              let p99 = output.firstMatch(of: /99%\s+([\d.]+)(us|ms|s)/)
        else { throw ValidationError("could not read wrk's output:\n\(output)") }
        let scale = p99.2 == "us" ? 0.001 : p99.2 == "s" ? 1000 : 1
        let errors = output.firstMatch(of: /Non-2xx or 3xx responses:\s+(\d+)/).flatMap { Int($0.1) } ?? 0
        return WrkResult(requestsPerSecond: rate, p99Milliseconds: (Double(p99.1) ?? 0) * scale, errors: errors)
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

    static func login(_ base: String) async throws -> String {
        var request = HTTPClientRequest(url: "\(base)/auth/login")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"provider":"dev","user_identifier":"movielens-1"}"#))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard let json = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any], let token = json["access_token"] as? String else {
            throw ValidationError("dev login failed")
        }
        return token
    }

    static func movieIds(_ dataset: URL) throws -> [Int64] {
        try String(contentsOf: dataset.appendingPathComponent("movies.csv"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).dropFirst().compactMap { $0.split(separator: ",").first.flatMap { Int64($0) } }
    }

    private func progress(_ text: String) {
        FileHandle.standardError.write(Data("\(text)\n".utf8))
    }
}

/// Samples this process's resident set size every 100 ms.
final class RSSSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = false

    var peakKilobytes: Int { lock.withLock { peak } }

    func start() {
        lock.withLock { running = true }
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let kilobytes = Self.currentKilobytes()
                lock.withLock { peak = max(peak, kilobytes) }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    func stop() {
        lock.withLock { running = false }
    }

    static func currentKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}
