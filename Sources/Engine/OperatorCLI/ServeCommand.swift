import ArgumentParser
import Foundation
import HTTPServing
import Hummingbird
import Logging
import ProductHosting
import ReadModels

/// `<product> serve`: the configuration from the flags, the environment and the product's defaults,
/// then the product's application served until stopped. `--host`, `--port` and `--[no-]demo` default
/// from the product's `<NAME>_HOST`, `<NAME>_PORT` and `<NAME>_DEMO`.
public struct ServeCommand<Product: ServedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration { CommandConfiguration(commandName: "serve", abstract: Product.serveAbstract) }

    @OptionGroup var global: ProductOptions<Product>

    @Option(help: "Address to listen on (env \(Product.environmentPrefix)_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (env \(Product.environmentPrefix)_PORT).")
    var port: Int?

    @Flag(inversion: .prefixedNo, help: "Demo mode: the product's demo data and generated secrets (env \(Product.environmentPrefix)_DEMO). Default: on for a new data directory (unless a master key is configured), and for one created in demo mode.")
    var demo: Bool?

    @OptionGroup var own: Product.ServeFlags

    public init() {}

    public func validate() throws {
        if let port { guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") } }
    }

    /// Logging bootstrapped, every unknown `<NAME>_*` variable logged as a warning, the server's pid
    /// in the data directory while it serves. With JSON logs, what stops it is logged too (as a line
    /// a collector parses, where the argument parser's own would be text).
    public func run() async throws {
        FreedMemory.configureHeap()
        let logger = global.logger()
        do {
            try await serve(logger: logger)
        } catch where global.logFormat == LogFormat.json.rawValue {
            logger.critical("stopped", metadata: ["error": "\(error)"])
            throw ExitCode.failure
        }
    }

    private func serve(logger: Logger) async throws {
        var configuration = try global.configuration(Product.Configuration.self, dataDirectory: global.dataDirectory, host: host, logger: logger)
        configuration.port = try port ?? EnvironmentSettings().integer("\(Product.environmentPrefix)_PORT", in: 0...65535) ?? configuration.port
        try ListeningAddress.check(host: configuration.host, port: configuration.port)
        configuration.demoMode = try DataDirectory(global.dataDirectory).resolveDemoMode(
            flag: demo, environment: try EnvironmentSettings().flag("\(Product.environmentPrefix)_DEMO"), joiningSharedLog: configuration.logURL != nil,
            givenMasterKey: configuration.serving.masterKey != nil
        )
        logger.info("starting", metadata: [
            "data_dir": "\(global.dataDirectory.path)", "demo": "\(configuration.demoMode)", "address": "\(configuration.host):\(configuration.port)",
            "log": "\(SharedLogSetting.describe(configuration.logURL))",
        ])
        try Product.configure(&configuration, with: own)
        try await DataDirectory(global.dataDirectory).whileServing { [configuration] in
            try await Product.application(configuration, logger: logger).runService()
        }
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
        var configuration = Configuration(dataDirectory: dataDirectory)
        try configuration.applyEverySetting(settings, prefix: prefix)
        for name in settings.unreadNames(prefix: prefix) {
            logger.warning("ignoring an environment variable no setting reads (misspelt?)", metadata: ["variable": "\(name)"])
        }
        configuration.logURL = logURL
        configuration.host = host ?? settings.text("\(prefix)_HOST") ?? "127.0.0.1"
        configuration.metricsRegistry = Bootstrap.metrics(Product.self)
        return configuration
    }
}
