import AppleSignIn
import HTTPServing
import NuvieAPI
import NuvieRecommendations
import Foundation

extension NuvieConfiguration {
    /// The rest of the configuration from the environment, every value checked (`InvalidSetting`).
    public mutating func apply(_ settings: EnvironmentSettings) throws {
        jwtSecret = try settings.secret("NUVIE_JWT_SECRET")
        internalToken = try settings.secret("NUVIE_INTERNAL_TOKEN")
        appleBundleId = settings.text("NUVIE_APPLE_BUNDLE_ID")
        appleKeySource = try settings.appleKeySource("NUVIE_APPLE_JWKS")
        aiServiceURL = try settings.httpURL("NUVIE_AI_SERVICE_URL")
        if let timeout = try settings.integer("NUVIE_AI_TIMEOUT_MS", in: 1...600_000) { aiServiceTimeout = .milliseconds(timeout) }
        if let seconds = try settings.integer("NUVIE_MODEL_RETRAIN_SECONDS", in: 1...86_400) { modelRetrainInterval = .seconds(seconds) }
        if let films = try settings.integer("NUVIE_MODEL_MAXIMUM_FILMS", in: 16...65_536) { modelParameters.maximumFilms = films }
        if let line = settings.text("NUVIE_RECOMMENDER") {
            do { recommender = try RecommenderConstants(line) } catch {
                throw InvalidSetting(name: "NUVIE_RECOMMENDER", value: line, expected: "the line nuvie eval --tune prints (\(error))")
            }
            (modelParameters.lambda, modelParameters.minimumRatings) = (recommender.lambda, recommender.minimumRatings)
        }
        if let ttl = try settings.integer("NUVIE_RECOMMENDATION_TTL_SECONDS", in: 1...86_400) { recommendationTTLSeconds = ttl }
        rateLimit = try RateLimit(settings, prefix: "NUVIE", default: .perPerson)
    }
}
