import Foundation
import HTTPServing
import Prometheus

/// The settings every product's server has, read by the engine for all of them (the `<NAME>_*`
/// variables of `EnvironmentSettings.servingNames`); a product's configuration holds them as
/// `serving` and reads them as its own (`configuration.port`: `ServerConfiguration`'s member lookup).
public struct ServingSettings: Sendable {
    public var dataDirectory: URL
    public var host = "127.0.0.1"
    public var port: Int
    /// The product's demo data, open dev sign-ins and secrets generated into the data directory.
    public var demoMode = false
    /// `<NAME>_MASTER_KEY(_FILE)`, base64 of 32 bytes wrapping every user's data key: required
    /// outside demo mode, which generates one into the data directory (ops/privacy.md).
    public var masterKey: String?
    /// `<NAME>_ADMIN_TOKEN(_FILE)` opens `/admin/…` (header `X-Admin-Token`); demo mode generates one
    /// when unset.
    public var adminToken: String?
    /// `<NAME>_LOG_URL` or `--log-url`: the log in PostgreSQL (`postgres://…`), shared by every node
    /// of the product. nil: the embedded log in the data directory.
    public var logURL: String?
    /// `<NAME>_HTTP_*`: timeouts and connection limits of the HTTP server.
    public var connections = ConnectionLimits()
    /// `<NAME>_READ_YOUR_WRITES_TIMEOUT_MS`: how long a write waits for its node's read models
    /// before answering 503.
    public var readYourWritesTimeout: Duration = .seconds(5)
    /// Served at `/metrics` when set (`serve` bootstraps swift-metrics with it).
    public var metricsRegistry: PrometheusCollectorRegistry?
    public var initialLogMapSize: Int
    /// Serves a past state (`<product> as-of --serve`): every write answers 405 and nothing is recorded.
    public var readOnly = false
    /// The data directory whose key store, master key and generated demo secrets this server reads,
    /// in place of its own: the live one, for a past state, so that a user erased since reads as
    /// erased there too and a live sign-in still holds. nil: its own.
    public var keysFrom: URL?

    public init(dataDirectory: URL, port: Int, initialLogMapSize: Int = 64 << 20) {
        self.dataDirectory = dataDirectory
        self.port = port
        self.initialLogMapSize = initialLogMapSize
    }

    /// For a test's own server: demo mode on an ephemeral port with a small log map, and writes that
    /// wait longer for their read models, since tests run in parallel on a loaded machine (the tests
    /// of the 503 after that wait set their own).
    public static func testing(dataDirectory: URL) -> ServingSettings {
        var settings = ServingSettings(dataDirectory: dataDirectory, port: 0, initialLogMapSize: 4 << 20)
        settings.demoMode = true
        settings.readYourWritesTimeout = .seconds(30)
        // A test client connects before its first request, and on a loaded two-core machine the
        // gap can pass the 10 s header deadline (the hardening tests set their own).
        settings.connections = ConnectionLimits(idleTimeout: .seconds(600), headerTimeout: .seconds(600), bodyTimeout: .seconds(600))
        return settings
    }

    /// The engine's settings from the environment, every value checked (`InvalidSetting`).
    mutating func apply(_ settings: EnvironmentSettings, prefix: String) throws {
        masterKey = try settings.secret("\(prefix)_MASTER_KEY")
        adminToken = try settings.secret("\(prefix)_ADMIN_TOKEN")
        if let url = settings.text("\(prefix)_LOG_URL") { logURL = try SharedLogSetting.checked(url, name: "\(prefix)_LOG_URL") }
        if let timeout = try settings.integer("\(prefix)_READ_YOUR_WRITES_TIMEOUT_MS", in: 1...600_000) {
            readYourWritesTimeout = .milliseconds(timeout)
        }
        try connections.apply(settings, prefix: prefix)
    }
}
