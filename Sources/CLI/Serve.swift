import API
import App
import ArgumentParser
import Foundation
import Prometheus

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the HTTP API (demo mode on a new data directory).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Address to listen on (env NUVIE_HOST).")
    var host: String = ProcessInfo.processInfo.environment["NUVIE_HOST"] ?? "127.0.0.1"

    @Option(help: "Port to listen on (env NUVIE_PORT).")
    var port: Int = ProcessInfo.processInfo.environment["NUVIE_PORT"].flatMap(Int.init) ?? 8080

    @Flag(inversion: .prefixedNo, help: "Demo mode: import the bundled MovieLens data into an empty log and allow dev sign-in (env NUVIE_DEMO). Default: on for a new data directory, and for one created in demo mode.")
    var demo: Bool?

    @Option(help: "The MovieLens directory demo mode imports.")
    var demoDataset: String?

    func run() async throws {
        let logger = Bootstrap.logging(level: global.logLevel)
        let registry = Bootstrap.metrics()
        let dataDirectory = global.dataDirectory
        let demoMode = try DemoMode.resolve(flag: demo, environment: ProcessInfo.processInfo.environment["NUVIE_DEMO"], dataDirectory: dataDirectory)

        let configuration = try Self.configuration(
            dataDirectory: dataDirectory, host: host, port: port, demoMode: demoMode,
            demoDataset: demoMode ? try DemoMode.dataset(demoDataset) : nil, registry: registry
        )
        logger.info("starting", metadata: ["data_dir": "\(dataDirectory.path)", "demo": "\(demoMode)", "address": "\(host):\(port)"])
        let app = try await buildApplication(configuration: configuration, logger: logger)
        let pidFile = DataDirectory(dataDirectory).serverPidFile
        try Data("\(ProcessInfo.processInfo.processIdentifier)\n".utf8).write(to: pidFile)
        defer { try? FileManager.default.removeItem(at: pidFile) }
        try await app.runService()
    }

    /// The server's configuration: these settings, and the rest from the `NUVIE_*` environment.
    static func configuration(
        dataDirectory: URL, host: String, port: Int, demoMode: Bool, demoDataset: URL?, registry: PrometheusCollectorRegistry
    ) throws -> AppConfiguration {
        let environment = ProcessInfo.processInfo.environment
        var configuration = AppConfiguration(
            dataDirectory: dataDirectory, host: host, port: port, demoMode: demoMode, demoDataset: demoDataset,
            jwtSecret: try secret(environment), metricsRegistry: registry
        )
        configuration.appleBundleId = environment["NUVIE_APPLE_BUNDLE_ID"]
        configuration.adminToken = try token(environment, "NUVIE_ADMIN_TOKEN")
        configuration.internalToken = try token(environment, "NUVIE_INTERNAL_TOKEN")
        if let url = environment["NUVIE_AI_SERVICE_URL"], !url.isEmpty {
            guard let parsed = URL(string: url), parsed.scheme == "http" || parsed.scheme == "https" else {
                throw ValidationError("NUVIE_AI_SERVICE_URL must be an http(s) URL")
            }
            configuration.aiServiceURL = parsed
        }
        if let timeout = try positive(environment, "NUVIE_AI_TIMEOUT_MS") { configuration.aiServiceTimeout = .milliseconds(timeout) }
        if let seconds = try positive(environment, "NUVIE_MODEL_RETRAIN_SECONDS") { configuration.modelRetrainInterval = .seconds(seconds) }
        if let ttl = try positive(environment, "NUVIE_RECOMMENDATION_TTL_SECONDS") { configuration.recommendationTTLSeconds = ttl }
        configuration.appleKeySource = environment["NUVIE_APPLE_JWKS"].map { source in
            source.hasPrefix("http://") || source.hasPrefix("https://")
                ? .url(URL(string: source) ?? URL(fileURLWithPath: source)) : .file(URL(fileURLWithPath: source))
        }
        let perMinute = environment["NUVIE_RATE_LIMIT_PER_MINUTE"].flatMap(Int.init) ?? AppConfiguration.defaultRateLimit.requestsPerMinute
        let burst = environment["NUVIE_RATE_LIMIT_BURST"].flatMap(Int.init) ?? AppConfiguration.defaultRateLimit.burst
        configuration.rateLimit = perMinute > 0 && burst > 0 ? RateLimit(requestsPerMinute: perMinute, burst: burst) : nil
        if let timeout = environment["NUVIE_READ_YOUR_WRITES_TIMEOUT_MS"].flatMap(Int.init) {
            configuration.readYourWritesTimeout = .milliseconds(timeout)
        }
        configuration.connections = try connectionLimits(environment)
        return configuration
    }

    /// A whole number of at least 1 from the environment; nil when unset.
    private static func positive(_ environment: [String: String], _ name: String) throws -> Int? {
        guard let raw = environment[name] else { return nil }
        guard let value = Int(raw), value >= 1 else { throw ValidationError("\(name) must be a whole number of at least 1") }
        return value
    }

    /// `NAME_FILE` (a file holding it) or `NAME` itself.
    private static func token(_ environment: [String: String], _ name: String) throws -> String? {
        try environment[name + "_FILE"].map {
            try String(contentsOfFile: $0, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } ?? environment[name]
    }

    private static func secret(_ environment: [String: String]) throws -> String? {
        if let file = environment["NUVIE_JWT_SECRET_FILE"] {
            return try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return environment["NUVIE_JWT_SECRET"]
    }
}

enum DemoMode {
    /// Explicit flag, then NUVIE_DEMO, then: on for a new or empty data directory (marked so that it
    /// stays a demo on restart), off otherwise.
    static func resolve(flag: Bool?, environment: String?, dataDirectory: URL) throws -> Bool {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)) ?? []
        let marker = DataDirectory(dataDirectory).demoMarker
        let demo = flag ?? environment.map { ["1", "true", "yes", "on"].contains($0.lowercased()) }
            ?? (files.isEmpty || files.contains(marker.lastPathComponent))
        if demo {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
            try Data().write(to: marker)
        }
        return demo
    }

    /// The bundled MovieLens copy: `--demo-dataset`, else `demo/ml-latest-small` in the working
    /// directory, else next to the sources this binary was built from.
    static func dataset(_ explicit: String?) throws -> URL {
        let candidates = [
            explicit.map { URL(fileURLWithPath: $0) },
            URL(fileURLWithPath: "demo/ml-latest-small"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("demo/ml-latest-small"),
        ].compactMap { $0 }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent("movies.csv").path) }) else {
            throw ValidationError("No demo dataset found (looked in \(candidates.map(\.path).joined(separator: ", "))); pass --demo-dataset")
        }
        return found
    }
}
