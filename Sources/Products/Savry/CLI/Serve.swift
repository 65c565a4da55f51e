import ArgumentParser
import Foundation
import HTTPServing
import ProductHosting
import SavryApp
import SavryProjections

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the recipes API (demo mode on a new data directory).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Address to listen on (env SAVRY_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (env SAVRY_PORT; default 3000).")
    var port: Int?

    @Flag(inversion: .prefixedNo, help: "Demo mode: seed the demo cooks' recipes and allow dev sign-in (env SAVRY_DEMO). Default: on for a new data directory, and for one created in demo mode.")
    var demo: Bool?

    func validate() throws {
        if let port { guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") } }
    }

    func run() async throws {
        let logger = Bootstrap.logging(SavryProduct.self, level: global.logLevel)
        let settings = EnvironmentSettings()
        for name in settings.unknownNames(prefix: "SAVRY", known: SavryConfiguration.environmentNames) {
            logger.warning("ignoring an environment variable no setting reads (misspelt?)", metadata: ["variable": "\(name)"])
        }
        var configuration = SavryConfiguration(dataDirectory: global.dataDirectory)
        configuration.demoMode = try DataDirectory(global.dataDirectory).resolveDemoMode(flag: demo, environment: try settings.flag("SAVRY_DEMO"))
        configuration.host = host ?? settings.text("SAVRY_HOST") ?? "127.0.0.1"
        configuration.port = try port ?? settings.integer("SAVRY_PORT", in: 0...65535) ?? 3000
        configuration.metricsRegistry = Bootstrap.metrics(SavryProduct.self)
        try configuration.apply(settings)
        logger.info("starting", metadata: [
            "data_dir": "\(global.dataDirectory.path)", "demo": "\(configuration.demoMode)", "address": "\(configuration.host):\(configuration.port)",
        ])
        let app = try await buildSavryApplication(configuration: configuration, logger: logger)
        try await DataDirectory(global.dataDirectory).whileServing { try await app.runService() }
    }
}
