import ArgumentParser
import Foundation
import HTTPServing
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

    public struct Resolved: Sendable {
        public var settings: EnvironmentSettings
        public var demoMode: Bool
        public var host: String
        public var port: Int
        public var logger: Logger
    }

    /// The flags over the environment over the defaults, with logging bootstrapped and every unknown
    /// `<NAME>_*` variable (a misspelling) logged as a warning.
    public func resolve(_ global: ProductOptions<Product>, defaultPort: Int, knownVariables: Set<String>) throws -> Resolved {
        let logger = Bootstrap.logging(Product.self, level: global.logLevel)
        let settings = EnvironmentSettings()
        for name in settings.unknownNames(prefix: Product.environmentPrefix, known: knownVariables) {
            logger.warning("ignoring an environment variable no setting reads (misspelt?)", metadata: ["variable": "\(name)"])
        }
        let prefix = Product.environmentPrefix
        return Resolved(
            settings: settings,
            demoMode: try DataDirectory(global.dataDirectory).resolveDemoMode(flag: demo, environment: try settings.flag("\(prefix)_DEMO")),
            host: host ?? settings.text("\(prefix)_HOST") ?? "127.0.0.1",
            port: try port ?? settings.integer("\(prefix)_PORT", in: 0...65535) ?? defaultPort,
            logger: logger
        )
    }
}
