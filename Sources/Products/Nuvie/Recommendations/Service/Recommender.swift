import EventSourcing
import NuvieDomain
import ReadModels
import Foundation
import Logging
import Metrics
import NuvieProjections
import NIOConcurrencyHelpers

/// The in-process AI service: the trained `ItemSimilarityModel` plus the live recommendation inputs.
/// The model is retrained from who rated or finished what in the read models (see
/// `ModelTrainingService`); everything else a score rests on (the user's ratings, finished and saved
/// films, taste, friends, popularity) is read at request time.
public final class Recommender: RecommendationEngine {
    public struct Trained: Sendable {
        public var model: ItemSimilarityModel
        public var info: ModelInfo
        /// The read models it was trained from: the latest rating or finished film, and the erasures.
        public var version: RecommendationInputQueries.InteractionsVersion
        /// The log position of the latest rating or finished film the model was trained on.
        public var position: UInt64 { version.position }
        /// Counts the trainings of this recommender: 1 for the first model.
        public var generation: Int
    }

    public static let modelName = "ibcf"
    public static let modelVersion = "v1"

    public let inputs: RecommendationInputQueries
    let parameters: ItemSimilarityModel.Parameters
    /// The scorer's shares (`NUVIE_RECOMMENDER`).
    let scoring: RecommenderConstants
    public let ttlSeconds: Int
    private let current = NIOLockedValueBox<Trained?>(nil)
    private let catalog = NIOLockedValueBox<LiveCatalog?>(nil)
    /// Each user's last scoring pass, kept while nothing it rests on has changed: their signals
    /// (`freshness`), the model and the catalog snapshot.
    private let scorings = NIOLockedValueBox(Memo<Int64, UserScoring>())
    /// The same passes by the model they were made with, for requests that come before anything
    /// they rest on has changed: those skip even the freshness read.
    private let settled = NIOLockedValueBox(Memo<Int64, Settled>())
    private let readModels: ReadModelRevision?
    private let logger: Logger

    /// Ratings per film, reloaded when movie-stats has moved on, but at most once a second; titles
    /// and genres, reloaded with them when the catalog has gained films.
    private struct LiveCatalog {
        var position: UInt64
        var loadedAt: ContinuousClock.Instant
        var snapshot: CatalogSnapshot
        var generation: Int

        static var reloadInterval: Duration { .seconds(1) }
    }

    /// A user's pass as made at a read-model revision: it holds while no fold has touched the user
    /// or any of their friends since, and until the catalog snapshot it was made with may be
    /// reloaded; past that, only while the snapshot was current and the catalog has not changed.
    /// So popularity is as fresh in it as in a pass made now.
    private struct Settled {
        var scoring: UserScoring
        var scopes: ReadScopeSet
        var revision: UInt64
        var until: ContinuousClock.Instant
        var catalogCurrent: Bool
        private static let catalog = ReadScopeSet([.catalog])

        init(scoring: UserScoring, userId: Int64, revision: UInt64, until: ContinuousClock.Instant, catalogCurrent: Bool) {
            self.scoring = scoring
            scopes = ReadScopeSet([.user(userId)] + scoring.profile.friendNames.keys.map(ReadScope.user))
            self.revision = revision
            self.until = until
            self.catalogCurrent = catalogCurrent
        }

        func holds(at now: ContinuousClock.Instant, readModels: ReadModelRevision) -> Bool {
            guard readModels.lastTouched(scopes) <= revision else { return false }
            return now < until || catalogCurrent && readModels.lastTouched(Self.catalog) <= revision
        }
    }

    /// `readModels`, when given, is the revision of the read models `inputs` reads.
    public init(
        inputs: RecommendationInputQueries, readModels: ReadModelRevision? = nil, parameters: ItemSimilarityModel.Parameters = .init(),
        scoring: RecommenderConstants = .init(), ttlSeconds: Int = 900, logger: Logger
    ) {
        self.inputs = inputs
        self.readModels = readModels
        self.parameters = parameters
        self.scoring = scoring
        self.ttlSeconds = ttlSeconds
        self.logger = logger
    }

    public var trained: Trained? { current.withLockedValue { $0 } }

    /// Trains on who watched what in the read models now (`interactions`: rated or finished) and serves
    /// the result from then on.
    @discardableResult
    public func train() throws -> Trained {
        let clock = ContinuousClock(), start = clock.now
        let (version, pairs) = try inputs.interactions()
        let position = version.position
        let model = try ItemSimilarityModel.train(pairs, parameters: parameters)
        let trained = current.withLockedValue { current in
            let next = Trained(
                model: model, info: ModelInfo(name: Self.modelName, version: Self.modelVersion, trainedAt: Date()),
                version: version, generation: (current?.generation ?? 0) + 1
            )
            current = next
            return next
        }
        forgetScorings()
        let elapsed = clock.now - start
        Timer(label: "nuvie_recommendation_training_seconds").recordNanoseconds(elapsed.nanoseconds)
        Gauge(label: "nuvie_recommendation_model_position").record(Double(position))
        Gauge(label: "nuvie_recommendation_model_films").record(Double(model.count))
        Gauge(label: "nuvie_recommendation_model_bytes").record(Double(model.weightBytes))
        logger.info("recommendation model trained", metadata: [
            "position": "\(position)", "pairs": "\(pairs.count)", "films": "\(model.count)", "elapsed": "\(elapsed)",
        ])
        return trained
    }

    public func recommend(_ query: RecommendQuery) async throws -> RecommendationList {
        let options = Scorer.Options(useSocial: query.useSocial, seedFilter: query.seedMovieIds, exclude: query.excludeMovieIds)
        let (scoring, trained) = try scoring(userId: query.userId, options: options)
        let page = scoring.recommend(limit: query.limit, offset: query.offset)
        return RecommendationList(
            requestId: query.requestId, userId: query.userId, model: trained.info, generatedAt: Date(), ttlSeconds: ttlSeconds,
            items: page.items, offset: query.offset
        )
    }

    public func explain(_ query: ExplainQuery) async throws -> MovieExplanation {
        guard try inputs.movieExists(query.movieId) else { throw RecommendationError.movieNotFound(query.movieId) }
        let (scoring, _) = try scoring(userId: query.userId, options: .init(useSocial: query.useSocial))
        let social = try inputs.socialSignals(userId: query.userId, movieId: query.movieId)
        return MovieExplanation(
            requestId: query.requestId, userId: query.userId,
            scored: scoring.explain(query.movieId),
            friendRatingsCount: social.friendRatingsCount, friendRatingsAverage: social.friendRatingsAverage,
            friendWatchCount: social.friendWatchCount
        )
    }

    public func scores(userId: Int64, movieId: Int64) async throws -> (aiScore: Int, socialScore: Int) {
        try scoring(userId: userId, options: .init()).0.scores(movieId)
    }

    /// The user's scoring pass over the current model and popularity: from the memo when their
    /// signals, the model and popularity are as they were, else made anew and, when the options
    /// change nothing (social on, no seed filter, exclusions they have seen anyway), remembered.
    func scoring(userId: Int64, options: Scorer.Options) throws -> (UserScoring, Trained) {
        guard let trained else { throw RecommendationError.modelNotReady }
        let plainOptions = options.useSocial && options.seedFilter == nil
        // Read before anything else, so what is remembered under it is at least as new.
        let revision = readModels?.current
        let settledKey = String(trained.generation)
        if plainOptions, let readModels, let memo = settled.withLockedValue({ $0.get(userId, key: settledKey) }),
           memo.holds(at: .now, readModels: readModels), memo.scoring.profile.hasSeen(options.exclude) {
            return (memo.scoring, trained)
        }
        let freshness = try inputs.freshness(userId: userId)
        let catalog = try liveCatalog(position: freshness.popularityPosition)
        let key = "\(freshness.stamp)|\(trained.generation)|\(catalog.generation)"
        func remember(_ scoring: UserScoring) {
            guard let revision else { return }
            let memo = Settled(
                scoring: scoring, userId: userId, revision: revision, until: catalog.loadedAt + LiveCatalog.reloadInterval,
                catalogCurrent: catalog.position == freshness.popularityPosition
            )
            settled.withLockedValue { $0.put(userId, key: settledKey, memo) }
        }
        if plainOptions, let memo = scorings.withLockedValue({ $0.get(userId, key: key) }), memo.profile.hasSeen(options.exclude) {
            remember(memo)
            return (memo, trained)
        }
        guard let found = try inputs.inputs(userId: userId) else { throw RecommendationError.userNotFound(userId) }
        let profile = TasteProfile(found)
        let plain = plainOptions && profile.hasSeen(options.exclude)
        let scoring = self.scoring.scorer(model: trained.model, catalog: catalog.snapshot).prepare(profile, options: plain ? .init() : options)
        if plain {
            scorings.withLockedValue { $0.put(userId, key: key, scoring) }
            remember(scoring)
        }
        return (scoring, trained)
    }

    private func liveCatalog(position: UInt64) throws -> LiveCatalog {
        let now = ContinuousClock.now
        let known = catalog.withLockedValue { $0 }
        if let known, known.position == position || now - known.loadedAt < LiveCatalog.reloadInterval { return known }
        let counts = try inputs.ratingCounts()
        var films = (titles: known?.snapshot.titles ?? [:], genres: known?.snapshot.genres ?? [:])
        if try inputs.movieCount() != films.titles.count { films = try inputs.catalog() }
        let fresh = catalog.withLockedValue { current in
            let fresh = LiveCatalog(
                position: position, loadedAt: now,
                snapshot: CatalogSnapshot(titles: films.titles, genres: films.genres, ratingCounts: counts),
                generation: (current?.generation ?? 0) + 1
            )
            current = fresh
            return fresh
        }
        forgetScorings()
        return fresh
    }

    /// Drops the remembered passes once a new model or catalog snapshot makes them unservable: each
    /// holds the model and snapshot it was made with (20 MB of weights on the demo), which would
    /// otherwise stay alive until the memo's least recently used entries are pushed out.
    private func forgetScorings() {
        scorings.withLockedValue { $0 = Memo() }
        settled.withLockedValue { $0 = Memo() }
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
        var marked: [Int64: Signal] = [:]
        for saved in inputs.saved { marked[saved.movieId] = Signal(.saved, position: saved.position) }
        for finished in inputs.completed { marked[finished.movieId] = Signal(.finished, position: finished.position) }
        self.init(
            ratings: Dictionary(inputs.ratings.map { ($0.movieId, Rated(rating: $0.rating, position: $0.position)) }) { a, _ in a },
            completed: Set(inputs.completed.map(\.movieId)), signals: marked, likedByGenre: inputs.likedByGenre, friendCount: inputs.friends.count,
            friendSignals: signals, friendNames: inputs.friends
        )
    }
}
