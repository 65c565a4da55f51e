import Logging
import Metrics
import NuvieRecommendations

/// Asks `primary` (an external AI service) and, when it fails, is too slow or does not know the
/// user or film yet (its data lags the log's), answers from `fallback` (the model in this process),
/// which has the last word on them. Only a request it calls invalid is passed on as it is.
public struct FallbackRecommendationEngine: RecommendationEngine {
    let primary: any RecommendationEngine
    let fallback: any RecommendationEngine
    let logger: Logger
    /// Made with the engine, so that each call's series is exported at 0 before its first fallback
    /// (an alert on its rate needs the series).
    let fallbacks: [String: Counter]

    public init(primary: any RecommendationEngine, fallback: any RecommendationEngine, logger: Logger) {
        self.primary = primary
        self.fallback = fallback
        self.logger = logger
        fallbacks = Dictionary(uniqueKeysWithValues: ["recommend", "explain"].map { ($0, Counter(label: "nuvie_ai_fallbacks_total", dimensions: [("call", $0)])) })
    }

    public func recommend(_ query: RecommendQuery) async throws -> RecommendationList {
        try await withFallback("recommend") { try await $0.recommend(query) }
    }

    public func explain(_ query: ExplainQuery) async throws -> MovieExplanation {
        try await withFallback("explain") { try await $0.explain(query) }
    }

    public func scores(userId: Int64, movieId: Int64) async throws -> (aiScore: Int, socialScore: Int) {
        try await withFallback("explain") { try await $0.scores(userId: userId, movieId: movieId) }
    }

    private func withFallback<T>(_ call: String, _ ask: (any RecommendationEngine) async throws -> T) async throws -> T {
        do {
            return try await ask(primary)
        } catch let error as RecommendationError where Self.fallsBack(error) {
            fallbacks[call]?.increment()
            logger.warning("AI service failed; answering from the in-process model", metadata: ["call": "\(call)", "error": "\(error)"])
            return try await ask(fallback)
        }
    }

    static func fallsBack(_ error: RecommendationError) -> Bool {
        switch error {
        case .modelNotReady, .timeout, .unavailable, .userNotFound, .movieNotFound: true
        case .invalidRequest: false
        }
    }
}
