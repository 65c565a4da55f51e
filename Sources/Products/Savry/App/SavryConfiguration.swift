import AppleSignIn
import Foundation
import HTTPServing
import Prometheus
import ProductHosting

/// Everything Savry's server needs to start, as plain values. The `savry` executable builds it from
/// flags and the `SAVRY_*` environment; tests use `.testing(dataDirectory:)`.
public struct SavryConfiguration: PastStateConfiguration {
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
    /// The master key wrapping the key store's data keys (base64 of 32 bytes, `SAVRY_MASTER_KEY` or
    /// the file `SAVRY_MASTER_KEY_FILE` names); demo mode generates one into the data directory when
    /// unset. Required otherwise.
    public var masterKey: String?
    /// A data directory whose key store (with its demo master key and generated secrets) is used, in
    /// place of the served directory's own: `savry as-of --serve` serves a copy of the log with the
    /// live keys, so an erasure since holds in the past state too. nil: the data directory's own.
    public var keysFrom: URL?
    public var readYourWritesTimeout: Duration = .seconds(5)
    /// Per cook (per IP address on sign-in); nil turns rate limiting off.
    public var rateLimit: RateLimit? = SavryConfiguration.defaultRateLimit
    public var initialLogMapSize = 64 << 20
    public var metricsRegistry: PrometheusCollectorRegistry?
    /// Serves a past state (`savry as-of --serve`): every write answers 405.
    public var readOnly = false
    public var connections = ConnectionLimits()
    public var logURL: String?

    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// As Nuvie's: enough for a person using the app (10 requests a second on average, bursts of
    /// 120), not for a script hammering one account.
    public static let defaultRateLimit = RateLimit(requestsPerMinute: 600, burst: 120)

    /// A demo-mode server on an ephemeral port, with a fixed JWT secret and no rate limit.
    public static func testing(dataDirectory: URL) -> SavryConfiguration {
        var configuration = SavryConfiguration(dataDirectory: dataDirectory)
        configuration.port = 0
        configuration.demoMode = true
        configuration.jwtSecret = "savry-test-secret-savry-test-secret"
        configuration.initialLogMapSize = 4 << 20
        configuration.rateLimit = nil
        // Tests run in parallel on a loaded machine: a write waits longer for its read models.
        configuration.readYourWritesTimeout = .seconds(30)
        return configuration
    }

    /// Savry's own `SAVRY_*` settings; the engine reads the rest (`EnvironmentSettings.servingNames`).
    public static let environmentNames: Set<String> = [
        "SAVRY_JWT_SECRET", "SAVRY_JWT_SECRET_FILE", "SAVRY_ADMIN_TOKEN", "SAVRY_ADMIN_TOKEN_FILE", "SAVRY_APPLE_BUNDLE_ID",
        "SAVRY_APPLE_JWKS", "SAVRY_READ_YOUR_WRITES_TIMEOUT_MS", "SAVRY_RATE_LIMIT_PER_MINUTE", "SAVRY_RATE_LIMIT_BURST",
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
        rateLimit = try RateLimit(settings, prefix: "SAVRY", default: Self.defaultRateLimit)
    }
}
