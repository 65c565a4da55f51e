import AppleSignIn
import HTTPServing
import NuvieAPI
import Foundation
import ProductHosting
import NuvieRecommendations

/// Everything the server needs to start, as plain values. The CLI builds it from flags and the
/// environment; tests use `.testing(dataDirectory:)`.
public struct NuvieConfiguration: PastStateConfiguration {
    public var serving: ServingSettings
    /// Imported into an empty log in demo mode.
    public var demoDataset: URL?
    public var jwtSecret: String?
    public var appleBundleId: String?
    public var appleKeySource: AppleIdentityVerifier.KeySource?
    /// Per user (per IP when anonymous); nil turns rate limiting off.
    public var rateLimit: RateLimit? = NuvieConfiguration.defaultRateLimit
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

    public init(dataDirectory: URL) {
        serving = ServingSettings(dataDirectory: dataDirectory, port: 8080, initialLogMapSize: 256 << 20)
    }

    /// Enough for any person using the app (10 requests a second on average, bursts of 120), not
    /// enough for a script hammering one account.
    public static let defaultRateLimit = RateLimit(requestsPerMinute: 600, burst: 120)

    /// A demo-mode server on an ephemeral port over `dataDirectory`, with no dataset to import, no rate
    /// limit, and read deadlines of minutes: a test client connects before its first request, and on
    /// a loaded two-core machine the gap can pass the 10 s header deadline (the hardening tests set
    /// their own).
    public static func testing(dataDirectory: URL) -> NuvieConfiguration {
        var configuration = NuvieConfiguration(dataDirectory: dataDirectory)
        configuration.serving = .testing(dataDirectory: dataDirectory)
        configuration.jwtSecret = "test-secret-test-secret-test-secret"
        configuration.rateLimit = nil
        configuration.connections = ConnectionLimits(idleTimeout: .seconds(600), headerTimeout: .seconds(600), bodyTimeout: .seconds(600))
        return configuration
    }

    /// The JWT secret: configured, or generated in demo mode; required.
    func resolvedJWTSecret() throws -> String {
        guard let secret = try secret(jwtSecret, named: "NUVIE_JWT_SECRET", file: "jwt-secret") else { throw ConfigurationError.missingJWTSecret }
        return secret
    }

    /// Shared with the AI service: configured, or generated in demo mode; without one `/ai/…` is off.
    func resolvedInternalToken() throws -> String? { try secret(internalToken, named: "NUVIE_INTERNAL_TOKEN", file: "internal-token") }

    var recommendationCachePath: String { DataDirectory(serving.dataDirectory).cache.appendingPathComponent("recommendation-feed.sqlite").path }
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
