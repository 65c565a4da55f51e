import HTTPServing
import NuvieAPI
import NuvieApp
import ArgumentParser
import Foundation
import ProductHosting
import Prometheus

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the HTTP API (demo mode on a new data directory).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Address to listen on (env NUVIE_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (env NUVIE_PORT; default 8080).")
    var port: Int?

    @Flag(inversion: .prefixedNo, help: "Demo mode: import the bundled MovieLens data into an empty log and allow dev sign-in (env NUVIE_DEMO). Default: on for a new data directory, and for one created in demo mode.")
    var demo: Bool?

    @Option(help: "The MovieLens directory demo mode imports.")
    var demoDataset: String?

    func validate() throws {
        if let port { guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") } }
    }

    func run() async throws {
        let logger = Bootstrap.logging(level: global.logLevel)
        let registry = Bootstrap.metrics()
        let settings = EnvironmentSettings()
        for name in settings.unknownNames(prefix: "NUVIE", known: NuvieConfiguration.environmentNames) {
            logger.warning("ignoring an environment variable no setting reads (misspelt?)", metadata: ["variable": "\(name)"])
        }
        let dataDirectory = global.dataDirectory
        let demoMode = try DataDirectory(dataDirectory).resolveDemoMode(flag: demo, environment: try settings.flag("NUVIE_DEMO"))
        let host = host ?? settings.text("NUVIE_HOST") ?? "127.0.0.1"
        let port = try port ?? settings.integer("NUVIE_PORT", in: 0...65535) ?? 8080

        let configuration = try Self.configuration(
            dataDirectory: dataDirectory, host: host, port: port, demoMode: demoMode,
            demoDataset: demoMode ? try DemoMode.dataset(demoDataset) : nil, registry: registry
        )
        logger.info("starting", metadata: ["data_dir": "\(dataDirectory.path)", "demo": "\(demoMode)", "address": "\(host):\(port)"])
        let app = try await buildNuvieApplication(configuration: configuration, logger: logger)
        try await DataDirectory(dataDirectory).whileServing { try await app.runService() }
    }

    /// The server's configuration: these settings, and the rest from the `NUVIE_*` environment, each
    /// value checked.
    static func configuration(
        dataDirectory: URL, host: String, port: Int, demoMode: Bool, demoDataset: URL?, registry: PrometheusCollectorRegistry
    ) throws -> NuvieConfiguration {
        var configuration = NuvieConfiguration(
            dataDirectory: dataDirectory, host: host, port: port, demoMode: demoMode, demoDataset: demoDataset, metricsRegistry: registry
        )
        try configuration.apply(EnvironmentSettings())
        return configuration
    }
}

enum DemoMode {
    /// The bundled MovieLens copy: `--demo-dataset`, else `demo/ml-latest-small` in the working
    /// directory, else next to the sources this binary was built from.
    static func dataset(_ explicit: String?) throws -> URL {
        do { return try DemoDataset.locate(explicit) } catch let error as DemoDataset.NotFound { throw ValidationError(error.description) }
    }
}
