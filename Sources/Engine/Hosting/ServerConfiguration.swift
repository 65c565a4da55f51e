import Foundation
import HTTPServing
import Logging
import Prometheus

/// What every product's server configuration has, so that one `serve` command fills them all in:
/// where, on which address, whether a demo, where metrics go, and the rest from its environment.
public protocol ServerConfiguration: Sendable {
    init(dataDirectory: URL)
    var dataDirectory: URL { get }
    var demoMode: Bool { get set }
    var host: String { get set }
    var port: Int { get set }
    var metricsRegistry: PrometheusCollectorRegistry? { get set }
    var connections: ConnectionLimits { get set }
    /// `<NAME>_MASTER_KEY`: required outside demo mode.
    var masterKey: String? { get set }
    /// `<NAME>_LOG_URL` or `--log-url`: the log in PostgreSQL (`postgres://…`), shared by every node
    /// of the product. nil: the embedded log in the data directory.
    var logURL: String? { get set }
    var initialLogMapSize: Int { get }
    /// Serves a past state: every write answers 405 and nothing is recorded (`PastStateConfiguration`).
    var readOnly: Bool { get }
    /// The data directory whose key store, master key and generated demo secrets this server reads,
    /// in place of its own: the live one, for a past state, so that a user erased since reads as
    /// erased there too and a live sign-in still holds. nil: its own.
    var keysFrom: URL? { get }
    /// Every `<NAME>_*` variable the product reads itself, besides the engine's
    /// (`EnvironmentSettings.servingNames`); others are reported as unknown at start-up.
    static var environmentNames: Set<String> { get }
    /// The product's own settings from the environment, every value checked.
    mutating func apply(_ settings: EnvironmentSettings) throws
}

extension ServerConfiguration {
    public var readOnly: Bool { false }
    public var keysFrom: URL? { nil }

    /// The settings the engine reads for every product (master key, shared log, HTTP connection
    /// limits: `EnvironmentSettings.servingNames`), then the product's own (`apply`).
    public mutating func applyEverySetting(_ settings: EnvironmentSettings, prefix: String) throws {
        masterKey = try settings.secret("\(prefix)_MASTER_KEY")
        if let url = settings.text("\(prefix)_LOG_URL") { logURL = try SharedLogSetting.checked(url, name: "\(prefix)_LOG_URL") }
        try connections.apply(settings, prefix: prefix)
        try apply(settings)
    }

    /// Where the key store and the master key are read.
    public var keysDirectory: DataDirectory { DataDirectory(keysFrom ?? dataDirectory) }

    /// Where the generated demo secret `name` is kept: the live directory's when this serves a past
    /// state from one that has it, else this data directory's. A past state never writes into the
    /// live directory.
    public func generatedSecretFile(_ name: String) -> URL {
        if let keysFrom, FileManager.default.fileExists(atPath: keysFrom.appendingPathComponent(name).path) {
            return keysFrom.appendingPathComponent(name)
        }
        return dataDirectory.appendingPathComponent(name)
    }
}

/// A configuration that can serve a past state (`<product> as-of --serve`): a copy of the log up to
/// a position, every write refused, personal fields opened with the live key store.
public protocol PastStateConfiguration: ServerConfiguration {
    var readOnly: Bool { get set }
    var keysFrom: URL? { get set }
}

extension ProductStores {
    /// The stores a server configured so serves from: its data directory, under the configured master
    /// key (in demo mode the one generated in `keysDirectory`), with the live key store and the log
    /// read-only for a past state.
    public static func open(for configuration: some ServerConfiguration, logger: Logger) async throws -> ProductStores {
        try await open(
            directory: DataDirectory(configuration.dataDirectory),
            masterKey: try configuration.keysDirectory.masterKey(for: Product.self, configured: configuration.masterKey, demoMode: configuration.demoMode),
            keyStore: configuration.keysFrom.map { DataDirectory($0).keyStorePath }, initialLogMapSize: configuration.initialLogMapSize,
            readOnly: configuration.readOnly, logURL: configuration.logURL, logger: logger
        )
    }

    /// `body`'s result, these stores closed when it throws: what a product's builder wires on them.
    public func closedIfThrowing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            close()
            throw error
        }
    }
}
