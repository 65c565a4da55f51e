import Logging
import Metrics
import Recommendations

/// Asks `primary` (an external AI service) and, when it fails or is too slow, answers from
/// `fallback` (the model in this process). Answers about unknown users or films are not failures.
public struct FallbackRecommendationEngine: RecommendationEngine {
    let primary: any RecommendationEngine
    let fallback: any RecommendationEngine
    let logger: Logger

    public init(primary: any RecommendationEngine, fallback: any RecommendationEngine, logger: Logger) {
        self.primary = primary
        self.fallback = fallback
        self.logger = logger
    }

    public func recommend(_ query: RecommendQuery) async throws -> RecommendationList {
        do {
            return try await primary.recommend(query)
        } catch let error as RecommendationError where Self.fallsBack(error) {
            record(error, call: "recommend")
            return try await fallback.recommend(query)
        }
    }

    public func explain(_ query: ExplainQuery) async throws -> MovieExplanation {
        do {
            return try await primary.explain(query)
        } catch let error as RecommendationError where Self.fallsBack(error) {
            record(error, call: "explain")
            return try await fallback.explain(query)
        }
    }

    static func fallsBack(_ error: RecommendationError) -> Bool {
        switch error {
        case .modelNotReady, .timeout, .unavailable: true
        case .userNotFound, .movieNotFound, .invalidRequest: false
        }
    }

    private func record(_ error: RecommendationError, call: String) {
        Counter(label: "nuvie_ai_fallbacks_total", dimensions: [("call", call)]).increment()
        logger.warning("AI service failed; answering from the in-process model", metadata: ["call": "\(call)", "error": "\(error)"])
    }
}
