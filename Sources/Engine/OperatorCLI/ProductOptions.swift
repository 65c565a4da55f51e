import ArgumentParser
import Foundation
import HTTPServing
import Logging
import PersonalData
import ProductHosting
import ReadModels

/// The options every command of a product's executable takes: its data directory and log level,
/// defaulting from `<PRODUCT>_DATA_DIR` and `<PRODUCT>_LOG_LEVEL`.
public struct ProductOptions<Product: EventSourcedProduct>: ParsableArguments {
    @Option(help: "Where the event log and read models live (env \(Product.environmentPrefix)_DATA_DIR).")
    public var dataDir: String = Self.setting("DATA_DIR") ?? "\(Product.name)-data"

    @Option(help: "trace, debug, info, notice, warning, error or critical (env \(Product.environmentPrefix)_LOG_LEVEL).")
    public var logLevel: String = Self.setting("LOG_LEVEL") ?? "info"

    @Option(help: "text, or json: one JSON object per line, for a log collector (env \(Product.environmentPrefix)_LOG_FORMAT).")
    public var logFormat: String = Self.setting("LOG_FORMAT") ?? "text"

    @Option(name: .customLong("log-url"), help: "The event log in PostgreSQL, shared by every node of the product: postgres://user:password@host:port/database (env \(Product.environmentPrefix)_LOG_URL). Unset: the embedded log in the data directory, which otherwise holds this node's copy of the shared one.")
    var logURLOption: String?

    /// `--log-url`, else `<PRODUCT>_LOG_URL`.
    public var logURL: String? {
        logURLOption ?? Self.setting("LOG_URL")
    }

    /// `<PRODUCT>_<name>`, read as every setting is (`EnvironmentSettings.text`: an empty variable
    /// counts as unset; an empty `_DATA_DIR` was the working directory).
    static func setting(_ name: String) -> String? {
        EnvironmentSettings().text("\(Product.environmentPrefix)_\(name)")
    }

    public init() {}

    public var dataDirectory: URL { URL(fileURLWithPath: dataDir, isDirectory: true).standardizedFileURL }

    public func validate() throws {
        let prefix = Product.environmentPrefix
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level / \(prefix)_LOG_LEVEL: unknown log level \(logLevel): trace, debug, info, notice, warning, error or critical")
        }
        guard LogFormat(rawValue: logFormat) != nil else { throw ValidationError("--log-format / \(prefix)_LOG_FORMAT: unknown log format \(logFormat): text or json") }
        if let logURL { _ = try SharedLogSetting.checked(logURL, name: "--log-url / \(Product.environmentPrefix)_LOG_URL") }
    }

    /// The data directory, refused when its marker names another product.
    public func productDirectory() throws -> DataDirectory {
        let directory = DataDirectory(dataDirectory)
        if let marked = directory.markedProduct, marked != Product.name {
            throw DataDirectoryError.belongsToAnotherProduct(dataDirectory.path, marked: marked, expected: Product.name)
        }
        return directory
    }

    /// `productDirectory()`, for a command that reads what is there: it must hold a log, so that a
    /// mistyped `--data-dir` is refused instead of read (or backed up) as an empty log.
    public func existingProductDirectory() throws -> DataDirectory {
        let directory = try productDirectory()
        guard FileManager.default.fileExists(atPath: directory.log.appendingPathComponent("data.mdb").path) else {
            throw OperatorRefusal("\(dataDirectory.path) holds no event log: is --data-dir (or \(Product.environmentPrefix)_DATA_DIR) right?")
        }
        return directory
    }

    /// Runs an offline command's `work` with no server over the data directory, and none starting meanwhile.
    public func whileNoServerRuns<T>(_ command: String, _ work: () async throws -> T) async throws -> T {
        let directory = try productDirectory()
        if let pid = directory.runningServer { throw OperatorRefusal("a server (pid \(pid)) is serving \(dataDirectory.path): stop it first") }
        return try await directory.whileStopped(command, work)
    }

    /// The master key from `<PRODUCT>_MASTER_KEY(_FILE)`, or a demo directory's own.
    public func masterKey() throws -> MasterKey {
        let directory = try productDirectory()
        return try directory.masterKey(
            for: Product.self, configured: try EnvironmentSettings().secret("\(Product.environmentPrefix)_MASTER_KEY"), demoMode: directory.isDemo
        )
    }

    /// The product's stores over the data directory, for a command that reads or writes them itself.
    public func openStores(readOnly: Bool = false, logger: Logger) async throws -> ProductStores<Product> {
        try await ProductStores.open(directory: try productDirectory(), masterKey: try masterKey(), readOnly: readOnly, logURL: logURL, logger: logger)
    }

    /// Bootstraps logging for a command that does not serve.
    public func logger() -> Logger { Bootstrap.logging(Product.self, level: logLevel, format: LogFormat(rawValue: logFormat) ?? .text) }
}
