import Foundation
import Logging
import Metrics
import Projections
import Synchronization

/// The in-process AI service: the trained `ItemSimilarityModel` plus the live recommendation inputs.
/// The model is retrained from the user-ratings read model (see `ModelTrainingService`); everything
/// else a score rests on (the user's ratings, taste, friends, popularity) is read at request time.
public final class Recommender: RecommendationEngine {
    public struct Trained: Sendable {
        public var model: ItemSimilarityModel
        public var info: ModelInfo
        /// The log position of the latest rating the model was trained on.
        public var position: UInt64
        var titles: [Int64: String]
        var genres: [Int64: [String]]
    }

    public static let modelName = "ibcf"
    public static let modelVersion = "v1"

    let inputs: RecommendationInputQueries
    let parameters: ItemSimilarityModel.Parameters
    public let ttlSeconds: Int
    private let current = Mutex<Trained?>(nil)
    private let logger: Logger

    public init(inputs: RecommendationInputQueries, parameters: ItemSimilarityModel.Parameters = .init(), ttlSeconds: Int = 900, logger: Logger) {
        self.inputs = inputs
        self.parameters = parameters
        self.ttlSeconds = ttlSeconds
        self.logger = logger
    }

    public var trained: Trained? { current.withLock { $0 } }

    /// Trains on every rating in the read model now and serves the result from then on.
    @discardableResult
    public func train() throws -> Trained {
        let clock = ContinuousClock(), start = clock.now
        let (position, pairs) = try inputs.interactions()
        let catalog = try inputs.catalog()
        let model = try ItemSimilarityModel.train(pairs, parameters: parameters)
        let trained = Trained(
            model: model, info: ModelInfo(name: Self.modelName, version: Self.modelVersion, trainedAt: Date()),
            position: position, titles: catalog.titles, genres: catalog.genres
        )
        current.withLock { $0 = trained }
        let elapsed = clock.now - start
        Timer(label: "nuvie_recommendation_training_seconds").recordNanoseconds(elapsed.nanoseconds)
        Gauge(label: "nuvie_recommendation_model_position").record(Double(position))
        logger.info("recommendation model trained", metadata: [
            "position": "\(position)", "ratings": "\(pairs.count)", "films": "\(model.count)", "elapsed": "\(elapsed)",
        ])
        return trained
    }

    public func recommend(_ query: RecommendQuery) async throws -> RecommendationList {
        let (scorer, trained, profile) = try prepare(userId: query.userId)
        let options = Scorer.Options(useSocial: query.useSocial, seedFilter: query.seedMovieIds, exclude: query.excludeMovieIds)
        let page = scorer.recommend(profile, options: options, limit: query.limit, offset: query.offset)
        return RecommendationList(
            requestId: query.requestId, userId: query.userId, model: trained.info, generatedAt: Date(), ttlSeconds: ttlSeconds,
            items: page.items, offset: query.offset
        )
    }

    public func explain(_ query: ExplainQuery) async throws -> MovieExplanation {
        let (scorer, _, profile) = try prepare(userId: query.userId)
        guard scorer.catalog.titles[query.movieId] != nil else { throw RecommendationError.movieNotFound(query.movieId) }
        let social = try inputs.socialSignals(userId: query.userId, movieId: query.movieId)
        return MovieExplanation(
            requestId: query.requestId, userId: query.userId,
            scored: scorer.explain(profile, movieId: query.movieId, options: .init(useSocial: query.useSocial)),
            friendRatingsCount: social.friendRatingsCount, friendRatingsAverage: social.friendRatingsAverage,
            friendWatchCount: social.friendWatchCount
        )
    }

    /// The scorer over the current model and today's popularity, and the user's taste profile.
    public func prepare(userId: Int64) throws -> (Scorer, Trained, TasteProfile) {
        guard let trained else { throw RecommendationError.modelNotReady }
        guard let found = try inputs.inputs(userId: userId) else { throw RecommendationError.userNotFound(userId) }
        let catalog = CatalogSnapshot(titles: trained.titles, genres: trained.genres, ratingCounts: try inputs.ratingCounts())
        return (Scorer(model: trained.model, catalog: catalog), trained, TasteProfile(found))
    }
}

extension TasteProfile {
    init(_ inputs: RecommendationInputs) {
        var signals: [Int64: [FriendSignal]] = [:]
        for signal in inputs.friendSignals {
            signals[signal.movieId, default: []].append(
                FriendSignal(friendId: signal.friendId, position: signal.position, recommended: signal.recommended)
            )
        }
        self.init(
            ratings: Dictionary(inputs.ratings.map { ($0.movieId, Rated(rating: $0.rating, position: $0.position)) }) { a, _ in a },
            completed: Set(inputs.completed), likedByGenre: inputs.likedByGenre, friendCount: inputs.friends.count,
            friendSignals: signals, friendNames: inputs.friends
        )
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
