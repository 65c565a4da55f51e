import ArgumentParser
import Foundation
import HTTPServing
import Hummingbird
import Logging
import ProductHosting
import ReadModels

/// `--host`, `--port` and `--[no-]demo` of a product's `serve`, each defaulting from the product's
/// `<NAME>_HOST`, `<NAME>_PORT` and `<NAME>_DEMO`.
public struct ServeOptions<Product: EventSourcedProduct>: ParsableArguments {
    @Option(help: "Address to listen on (env \(Product.environmentPrefix)_HOST; default 127.0.0.1).")
    public var host: String?

    @Option(help: "Port to listen on (env \(Product.environmentPrefix)_PORT).")
    public var port: Int?

    @Flag(inversion: .prefixedNo, help: "Demo mode: the product's demo data and generated secrets (env \(Product.environmentPrefix)_DEMO). Default: on for a new data directory, and for one created in demo mode.")
    public var demo: Bool?

    public init() {}

    public func validate() throws {
        if let port { guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") } }
    }

    /// Builds the configuration from the flags, the environment and the product's defaults (logging
    /// bootstrapped, every unknown `<NAME>_*` variable logged as a warning), then serves what `build`
    /// makes of it until stopped, with the server's pid in the data directory.
    public func run<Configuration: ServerConfiguration, App: ApplicationProtocol>(
        _ global: ProductOptions<Product>, _ type: Configuration.Type,
        build: (Configuration, Logger) async throws -> App
    ) async throws {
        FreedMemory.limitHeapArenas()
        let logger = Bootstrap.logging(Product.self, level: global.logLevel)
        var configuration = try global.configuration(Configuration.self, dataDirectory: global.dataDirectory, host: host, logger: logger)
        configuration.demoMode = try DataDirectory(global.dataDirectory).resolveDemoMode(
            flag: demo, environment: try EnvironmentSettings().flag("\(Product.environmentPrefix)_DEMO"), joiningSharedLog: configuration.logURL != nil
        )
        configuration.port = try port ?? EnvironmentSettings().integer("\(Product.environmentPrefix)_PORT", in: 0...65535) ?? configuration.port
        logger.info("starting", metadata: [
            "data_dir": "\(global.dataDirectory.path)", "demo": "\(configuration.demoMode)", "address": "\(configuration.host):\(configuration.port)",
            "log": "\(SharedLogSetting.describe(configuration.logURL))",
        ])
        let app = try await build(configuration, logger)
        try await DataDirectory(global.dataDirectory).whileServing { try await app.runService() }
    }
}

extension ProductOptions {
    /// A server configuration over `dataDirectory` with every setting from the environment (each
    /// unknown `<NAME>_*` variable logged as a warning), the address and the shared log from the flags.
    func configuration<Configuration: ServerConfiguration>(
        _: Configuration.Type, dataDirectory: URL, host: String?, logger: Logger
    ) throws -> Configuration {
        let prefix = Product.environmentPrefix
        let settings = EnvironmentSettings()
        for name in settings.unknownNames(prefix: prefix, known: Configuration.environmentNames) {
            logger.warning("ignoring an environment variable no setting reads (misspelt?)", metadata: ["variable": "\(name)"])
        }
        var configuration = Configuration(dataDirectory: dataDirectory)
        try configuration.applyEverySetting(settings, prefix: prefix)
        configuration.logURL = logURL
        configuration.host = host ?? settings.text("\(prefix)_HOST") ?? "127.0.0.1"
        configuration.metricsRegistry = Bootstrap.metrics(Product.self)
        return configuration
    }
}
