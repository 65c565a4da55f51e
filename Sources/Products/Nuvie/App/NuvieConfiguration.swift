import AppleSignIn
import HTTPServing
import NuvieAPI
import Foundation
import ProductHosting
import Prometheus
import NuvieRecommendations

/// Everything the server needs to start, as plain values. The CLI builds it from flags and the
/// environment; tests use `.testing(dataDirectory:)`.
public struct NuvieConfiguration: PastStateConfiguration {
    public var dataDirectory: URL
    public var host: String
    public var port: Int
    /// Demo mode imports `demoDataset` into an empty log, enables the `dev` sign-in provider and
    /// keeps a generated JWT secret in the data directory (a past state reads the live one's).
    public var demoMode: Bool
    public var demoDataset: URL?
    public var jwtSecret: String?
    public var appleBundleId: String?
    public var appleKeySource: AppleIdentityVerifier.KeySource?
    public var readYourWritesTimeout: Duration
    public var initialLogMapSize: Int
    /// Opens the `/admin` endpoints (header `X-Admin-Token`); demo mode generates one when unset.
    public var adminToken: String?
    /// Per user (per IP when anonymous); nil turns rate limiting off.
    public var rateLimit: RateLimit?
    /// Served at `/metrics` when set (the CLI bootstraps swift-metrics with it).
    public var metricsRegistry: PrometheusCollectorRegistry?
    /// Shared with the AI service: opens `/ai/…` here and signs calls to `aiServiceURL`. Demo mode
    /// generates one when unset.
    public var internalToken: String?
    /// An external AI service speaking the internal contract; nil: the model in this process answers.
    public var aiServiceURL: URL?
    public var aiServiceTimeout: Duration = .seconds(2)
    public var modelParameters = ItemSimilarityModel.Parameters()
    /// How often the model checks for new ratings and retrains.
    public var modelRetrainInterval: Duration = .seconds(60)
    /// `ttl_seconds` of the in-process model's answers: how long the feed serves a cached list.
    public var recommendationTTLSeconds = 900
    /// Serves the data directory as it is and records nothing: every write answers 405
    /// `METHOD_NOT_ALLOWED` (`nuvie as-of --serve`).
    public var readOnly = false
    /// Wraps every user's data key (env `NUVIE_MASTER_KEY` or `NUVIE_MASTER_KEY_FILE`, base64 of 32
    /// bytes); demo mode generates one into the data directory when unset, which a past state reads
    /// from the live one (ops/privacy.md).
    public var masterKey: String?
    /// The data directory whose key store, master key and generated demo secrets are used, when not
    /// this one's: a past state served from a copy of the log reads the live one (`nuvie as-of --serve`).
    public var keysFrom: URL?
    /// Timeouts and the connection limit of the HTTP server (env `NUVIE_HTTP_*`).
    public var connections = ConnectionLimits()
    public var logURL: String?

    public init(
        dataDirectory: URL, host: String = "127.0.0.1", port: Int = 8080, demoMode: Bool = false, demoDataset: URL? = nil,
        jwtSecret: String? = nil, appleBundleId: String? = nil, appleKeySource: AppleIdentityVerifier.KeySource? = nil,
        readYourWritesTimeout: Duration = .seconds(5), initialLogMapSize: Int = 256 << 20,
        rateLimit: RateLimit? = NuvieConfiguration.defaultRateLimit, metricsRegistry: PrometheusCollectorRegistry? = nil
    ) {
        self.dataDirectory = dataDirectory
        self.host = host
        self.port = port
        self.demoMode = demoMode
        self.demoDataset = demoDataset
        self.jwtSecret = jwtSecret
        self.appleBundleId = appleBundleId
        self.appleKeySource = appleKeySource
        self.readYourWritesTimeout = readYourWritesTimeout
        self.initialLogMapSize = initialLogMapSize
        self.rateLimit = rateLimit
        self.metricsRegistry = metricsRegistry
    }

    public init(dataDirectory: URL) {
        self.init(dataDirectory: dataDirectory, host: "127.0.0.1")
    }

    /// Enough for any person using the app (10 requests a second on average, bursts of 120), not
    /// enough for a script hammering one account.
    public static let defaultRateLimit = RateLimit(requestsPerMinute: 600, burst: 120)

    /// A demo-mode server on an ephemeral port over `dataDirectory`, with no dataset to import, no rate
    /// limit, and read deadlines of minutes: a test client connects before its first request, and on
    /// a loaded two-core machine the gap can pass the 10 s header deadline (the hardening tests set
    /// their own).
    public static func testing(dataDirectory: URL) -> NuvieConfiguration {
        var configuration = NuvieConfiguration(
            dataDirectory: dataDirectory, port: 0, demoMode: true, jwtSecret: "test-secret-test-secret-test-secret",
            initialLogMapSize: 4 << 20, rateLimit: nil
        )
        configuration.connections = ConnectionLimits(idleTimeout: .seconds(600), headerTimeout: .seconds(600), bodyTimeout: .seconds(600))
        // Tests run in parallel on a loaded machine: a write waits longer for its read models before
        // answering 503 (the tests of that answer set their own).
        configuration.readYourWritesTimeout = .seconds(30)
        return configuration
    }

    var recommendationCachePath: String { DataDirectory(dataDirectory).cache.appendingPathComponent("recommendation-feed.sqlite").path }
}

public enum ConfigurationError: Error, CustomStringConvertible {
    case missingJWTSecret
    case missingInternalToken

    public var description: String {
        switch self {
        case .missingJWTSecret: "No JWT secret: set NUVIE_JWT_SECRET_FILE (or NUVIE_JWT_SECRET), or run in demo mode"
        case .missingInternalToken: "An AI service URL needs the internal token it expects: set NUVIE_INTERNAL_TOKEN_FILE (or NUVIE_INTERNAL_TOKEN)"
        }
    }
}
