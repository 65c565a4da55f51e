import AppleSignIn
import Foundation
import HTTPServing
import Prometheus

/// Everything Savry's server needs to start, as plain values. The `savry` executable builds it from
/// flags and the `SAVRY_*` environment; tests use `.testing(dataDirectory:)`.
public struct SavryConfiguration: Sendable {
    public var dataDirectory: URL
    public var host = "127.0.0.1"
    public var port = 3000
    /// Demo mode seeds the demo cooks' recipes, opens `{"devUser": …}` sign-in and keeps generated
    /// secrets in the data directory.
    public var demoMode = false
    public var jwtSecret: String?
    public var appleBundleId: String?
    public var appleKeySource: AppleIdentityVerifier.KeySource?
    /// Opens `/admin/…` (header `X-Admin-Token`); demo mode generates one when unset.
    public var adminToken: String?
    public var readYourWritesTimeout: Duration = .seconds(5)
    public var initialLogMapSize = 64 << 20
    public var metricsRegistry: PrometheusCollectorRegistry?
    /// Serves a past state (`savry as-of --serve`): every write answers 405.
    public var readOnly = false
    public var connections = ConnectionLimits()

    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// A demo-mode server on an ephemeral port, with a fixed JWT secret.
    public static func testing(dataDirectory: URL) -> SavryConfiguration {
        var configuration = SavryConfiguration(dataDirectory: dataDirectory)
        configuration.port = 0
        configuration.demoMode = true
        configuration.jwtSecret = "savry-test-secret-savry-test-secret"
        configuration.initialLogMapSize = 4 << 20
        return configuration
    }

    /// Every `SAVRY_*` variable the server reads; others are reported as unknown at start-up.
    public static let environmentNames: Set<String> = [
        "SAVRY_DATA_DIR", "SAVRY_LOG_LEVEL", "SAVRY_HOST", "SAVRY_PORT", "SAVRY_DEMO",
        "SAVRY_JWT_SECRET", "SAVRY_JWT_SECRET_FILE", "SAVRY_ADMIN_TOKEN", "SAVRY_ADMIN_TOKEN_FILE",
        "SAVRY_APPLE_BUNDLE_ID", "SAVRY_APPLE_JWKS", "SAVRY_READ_YOUR_WRITES_TIMEOUT_MS",
        "SAVRY_HTTP_IDLE_TIMEOUT_SECONDS", "SAVRY_HTTP_HEADER_TIMEOUT_SECONDS", "SAVRY_HTTP_BODY_TIMEOUT_SECONDS",
        "SAVRY_HTTP_MAX_CONNECTIONS",
    ]

    /// The rest of the configuration from the environment, every value checked (`InvalidSetting`).
    public mutating func apply(_ settings: EnvironmentSettings) throws {
        jwtSecret = try settings.secret("SAVRY_JWT_SECRET")
        adminToken = try settings.secret("SAVRY_ADMIN_TOKEN")
        appleBundleId = settings.text("SAVRY_APPLE_BUNDLE_ID")
        appleKeySource = try settings.appleKeySource("SAVRY_APPLE_JWKS")
        if let timeout = try settings.integer("SAVRY_READ_YOUR_WRITES_TIMEOUT_MS", in: 1...600_000) {
            readYourWritesTimeout = .milliseconds(timeout)
        }
        try connections.apply(settings, prefix: "SAVRY")
    }
}
