import AppleSignIn
import HTTPServing
import NuvieAPI
import Foundation
import ProductHosting
import NuvieProjections
import NuvieRecommendations

/// Everything the server needs to start, as plain values. The CLI builds it from flags and the
/// environment.
public struct NuvieConfiguration: PastStateConfiguration {
    public var serving: ServingSettings
    /// Imported into an empty log in demo mode.
    public var demoDataset: URL?
    public var jwtSecret: String?
    public var appleBundleId: String?
    public var appleKeySource: AppleIdentityVerifier.KeySource?
    /// Per user (per IP when anonymous); nil turns rate limiting off.
    public var rateLimit: RateLimit? = RateLimit.perPerson
    /// Shared with the AI service: opens `/ai/…` here and signs calls to `aiServiceURL`. Demo mode
    /// generates one when unset.
    public var internalToken: String?
    /// An external AI service speaking the internal contract; nil: the model in this process answers.
    public var aiServiceURL: URL?
    public var aiServiceTimeout: Duration = .seconds(2)
    public var modelParameters = ItemSimilarityModel.Parameters()
    /// The served model's constants (`NUVIE_RECOMMENDER`); its λ and rating floor are `modelParameters`'.
    public var recommender = RecommenderConstants()
    /// How often the model checks for new ratings and retrains.
    public var modelRetrainInterval: Duration = .seconds(60)
    /// `ttl_seconds` of the in-process model's answers: how long the feed serves a cached list.
    public var recommendationTTLSeconds = 900

    public init(dataDirectory: URL) {
        serving = ServingSettings(dataDirectory: dataDirectory, port: 8080, initialLogMapSize: 256 << 20)
    }

    var recommendationCachePath: String { DataDirectory(serving.dataDirectory).cache.appendingPathComponent("recommendation-feed.sqlite").path }
}


/// The secrets a Nuvie server needs, each configured or generated once in demo mode: checked at
/// start-up, before the demo import and the first training.
struct NuvieSecrets {
    var jwt: String
    /// Shared with the AI service: opens `/ai/…` here and signs calls to `aiServiceURL`; without one
    /// `/ai/…` is off.
    var internalToken: String?

    init(_ configuration: NuvieConfiguration) throws {
        jwt = try configuration.requiredSecret(configuration.jwtSecret, named: "NUVIE_JWT_SECRET", file: "jwt-secret")
        internalToken = try configuration.secret(configuration.internalToken, named: "NUVIE_INTERNAL_TOKEN", file: "internal-token")
        if configuration.aiServiceURL != nil, internalToken == nil { throw MissingSecret(name: "NUVIE_INTERNAL_TOKEN", neededBy: "NUVIE_AI_SERVICE_URL") }
    }
}
