import Foundation
import HTTPServing
import Logging

/// What every product's server configuration has, so that one `serve` command fills them all in:
/// the engine's `serving` settings, read as the configuration's own members (`configuration.port`),
/// and the product's, from its environment.
@dynamicMemberLookup
public protocol ServerConfiguration: Sendable {
    init(dataDirectory: URL)
    var serving: ServingSettings { get set }
    /// The product's own settings from the environment, every value checked. A `<NAME>_*` variable set
    /// that neither this nor the engine reads is reported at start-up (`EnvironmentSettings.unreadNames`).
    mutating func apply(_ settings: EnvironmentSettings) throws
}

extension ServerConfiguration {
    public subscript<Value>(dynamicMember setting: WritableKeyPath<ServingSettings, Value>) -> Value {
        get { serving[keyPath: setting] }
        set { serving[keyPath: setting] = newValue }
    }

    /// The settings the engine reads for every product (`EnvironmentSettings.servingNames`), then the
    /// product's own (`apply`).
    public mutating func applyEverySetting(_ settings: EnvironmentSettings, prefix: String) throws {
        try serving.apply(settings, prefix: prefix)
        try apply(settings)
    }

    /// Where the key store and the master key are read.
    public var keysDirectory: DataDirectory { DataDirectory(serving.keysFrom ?? serving.dataDirectory) }

    /// Whether the builder seeds or imports its demo: in demo mode, and not for a past state served
    /// read-only (`as-of --serve`), whose log takes no writes.
    public var seedsDemo: Bool { serving.demoMode && !serving.readOnly }

    /// Where the generated demo secret `name` is kept: the live directory's when this serves a past
    /// state from one that has it, else this data directory's. A past state never writes into the
    /// live directory.
    public func generatedSecretFile(_ name: String) -> URL {
        if let keysFrom = serving.keysFrom, FileManager.default.fileExists(atPath: keysFrom.appendingPathComponent(name).path) {
            return keysFrom.appendingPathComponent(name)
        }
        return serving.dataDirectory.appendingPathComponent(name)
    }

    /// `configured` (at least 32 bytes), else in demo mode the one generated once into
    /// `generatedSecretFile(file)`, else nil. `name` is the setting the operator would set.
    public func secret(_ configured: String?, named name: String, file: String) throws -> String? {
        try GeneratedSecret.resolve(configured, named: name, demoMode: serving.demoMode, file: generatedSecretFile(file))
    }

    /// `secret(_:named:file:)` for a secret the server cannot start without.
    public func requiredSecret(_ configured: String?, named name: String, file: String) throws -> String {
        guard let secret = try secret(configured, named: name, file: file) else { throw MissingSecret(name: name) }
        return secret
    }
}

/// A secret the configuration needs and does not have; `neededBy` names the setting that needs it
/// when only that one does.
public struct MissingSecret: Error, CustomStringConvertible {
    public var name: String
    public var neededBy: String?

    public init(name: String, neededBy: String? = nil) {
        self.name = name
        self.neededBy = neededBy
    }

    public var description: String {
        guard let neededBy else { return "No \(name): set \(name)_FILE (or \(name)), or run in demo mode" }
        return "\(neededBy) needs \(name): set \(name)_FILE (or \(name))"
    }
}

/// A configuration of a product that can serve a past state (`<product> as-of --serve`): a copy of
/// the log up to a position, every write refused, personal fields opened with the live key store.
public protocol PastStateConfiguration: ServerConfiguration {}

extension ProductStores {
    /// The stores a server configured so serves from: its data directory, under the configured master
    /// key (in demo mode the one generated in `keysDirectory`), with the live key store and the log
    /// read-only for a past state.
    ///
    /// The operator token is resolved first (in demo mode, generated): a start that cannot have one
    /// stops before any work.
    public static func open(for configuration: some ServerConfiguration, logger: Logger) async throws -> ProductStores {
        _ = try configuration.operatorToken(Product.self)
        return try await open(
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
