import Foundation
import NuvieMovieLens
import NuvieProjections

/// Top-10 quality on one split: most popular, plain item-kNN (cosine, k = 20), plain EASE (every
/// item–item weight, negatives included, every rated film a seed), implicit ALS (`ImplicitALS`) and
/// the served model (`Scorer`
/// over `ItemSimilarityModel`, without social signals: the ratings file has no friends). Then the
/// cold start: each evaluated user cut to their first 3, 5 and 10 training ratings, popular, item-kNN
/// and plain EASE on those few against served; and the same four for new users (`NewUsers`).
public struct OfflineEvaluation: Sendable {
    public struct Result: Sendable, Equatable {
        public var model: String
        public var precision: Double
        public var recall: Double
        public var ndcg: Double
        public var hitRate: Double
        /// Distinct films recommended to anyone / films in the ratings file.
        public var coverage: Double
        public var users: Int
        /// Wall time to rank one user's top 10, after training: each user's own, while every core ranks.
        public var millisecondsPerUser: Double
    }

    /// The constants of the served model (`served`, each read and set as if it were this struct's own),
    /// and plain EASE's own (searched the same way).
    @dynamicMemberLookup
    public struct Constants: Sendable, Equatable {
        public var served: RecommenderConstants
        /// What a film finished or saved without a rating counts (`Scorer.signalWeight`): measured by
        /// `signalRows`, not searched (the ratings files have no such films).
        public var signalWeight = Scorer.defaultSignalWeight
        /// Ablations only (`nuvie eval --ablate`).
        var keepsNegativeWeights = ItemSimilarityModel.Parameters().keepsNegativeWeights
        public var ease: ItemSimilarityModel.Parameters
        /// The implicit-feedback baseline's (`ImplicitALS`), searched as plain EASE's is.
        public var als = ImplicitALS.Parameters()

        public init(served: RecommenderConstants = .init(), ease: ItemSimilarityModel.Parameters? = nil) {
            self.served = served
            self.ease = ease ?? .plainEASE
        }

        public subscript<Value>(dynamicMember constant: WritableKeyPath<RecommenderConstants, Value>) -> Value {
            get { served[keyPath: constant] }
            set { served[keyPath: constant] = newValue }
        }

        var model: ItemSimilarityModel.Parameters { .init(minimumRatings: served.minimumRatings, lambda: served.lambda, keepsNegativeWeights: keepsNegativeWeights) }
    }

    /// The served model with one of its choices undone at a time, each a row named for what changed:
    /// which of them a split rewards or punishes.
    public static let ablations: [(name: String, change: @Sendable (inout Constants) -> Void)] = [
        ("served − recency", { $0.recencyHalfLife = nil }),
        ("served − recency floor", { $0.recencyFloor = 0 }),
        ("served − genre", { $0.genreShare = 0 }),
        ("served − sequence", { $0.sequenceWeight = 0; $0.recentSequenceWeight = 0 }),
        ("served − popularity blend", { $0.fullHistory = Double(Scorer.minimumHistory) }),
        ("served − negative weights (dropped)", { $0.keepsNegativeWeights = false }),
        ("served − rating floor (5)", { $0.minimumRatings = 5 }),
        ("served − films rated, not liked", { $0.otherRatingsWeight = 0 }),
        ("served, films rated but not liked at half weight", { $0.otherRatingsWeight = 0.5 }),
    ]

    public static let cutoff = 10
    public static let coldStartHistories = [3, 5, 10]

    public let split: Split
    public let movies: (titles: [Int64: String], genres: [Int64: [String]])
    public let constants: Constants
    /// Held out whole from the ratings the split was made of (`newUserRows`).
    public let newUsers: NewUsers
    let catalogSize: Int

    public init(ratings: [RatingRecord], split kind: Split.Kind, seed: UInt64 = 42,
                movies: (titles: [Int64: String], genres: [Int64: [String]]) = ([:], [:]), constants: Constants = .init()) {
        self.init(
            split: Split(ratings, kind: kind, seed: seed), movies: movies, constants: constants, newUsers: NewUsers(ratings, seed: seed),
            catalogSize: Set(ratings.map(\.movieId)).count
        )
    }

    init(split: Split, movies: (titles: [Int64: String], genres: [Int64: [String]]), constants: Constants, newUsers: NewUsers, catalogSize: Int) {
        self.split = split
        self.movies = movies
        self.constants = constants
        self.newUsers = newUsers
        self.catalogSize = catalogSize
    }

    /// The same split under other constants.
    func with(_ constants: Constants) -> OfflineEvaluation {
        OfflineEvaluation(split: split, movies: movies, constants: constants, newUsers: newUsers, catalogSize: catalogSize)
    }

    /// The same evaluation on a validation split carved from the training part (as `--tune` does):
    /// where choices are explored without looking at the test part.
    public func onValidation(seed: UInt64) -> OfflineEvaluation {
        OfflineEvaluation(
            split: Split(split.train, kind: split.kind, seed: seed), movies: movies, constants: constants,
            newUsers: NewUsers(split.train, seed: seed), catalogSize: catalogSize
        )
    }

    /// popular, item-knn, ease, als, served, the ablations when asked, the cold-start rows, the new
    /// users' rows (`newUserRows`), then the implicit-signal rows when asked (`signalRows`).
    public func run(ablate: Bool = false, signals: (share: Double, seed: UInt64)? = nil, progress: (String) -> Void = { _ in }) throws -> [Result] {
        let history = History(split.train)
        let users = split.test.keys.sorted()

        progress("popular")
        let popular = measure("popular", users) { history.popular(excluding: history.moviesOf($0)) }

        progress("item-knn: similarities")
        let knn = ItemKNN(userMovies: history.userMovies, movieIds: history.counts.keys.sorted())
        progress("item-knn: ranking")
        let itemKNN = measure("item-knn", users) { knn.top(history.userMovies[$0] ?? [], limit: Self.cutoff) }

        progress("ease: training")
        let ease = try trained(constants.ease)
        progress("ease: ranking")
        let plainEASE = measure("ease", users) { ease.top(seeds: history.userMovies[$0] ?? [], limit: Self.cutoff) }

        progress("als: training")
        let als = try ImplicitALS.train(userMovies: history.userMovies, parameters: constants.als)
        progress("als: ranking")
        let implicitALS = try measure("als", users) { try als.top(seeds: history.userMovies[$0] ?? [], limit: Self.cutoff) }

        progress("served: training")
        let scorer = servedScorer(try trained(constants.model, reusing: [ease]), history)
        progress("served: ranking")
        let served = measure("served", users) { scorer.topMovieIds(history.profile($0, genres: movies.genres), limit: Self.cutoff) }
        var ablated: [Result] = []
        for (name, change) in ablate ? Self.ablations : [] {
            progress(name)
            var changed = constants
            change(&changed)
            let probe = with(changed)
            let model = try probe.trained(changed.model, reusing: [scorer.model, ease])
            let scorer = probe.servedScorer(model, history)
            ablated.append(measure(name, users) { scorer.topMovieIds(history.profile($0, genres: movies.genres), limit: Self.cutoff) })
        }

        progress("cold start")
        let coldStart = zip(coldStart(scorer, history), coldStartBaselines(knn, ease, history)).flatMap { [$0.popular, $1.itemKNN, $1.ease, $0.served] }
        progress("new users")
        let newcomers = try newUserRows(newUsers)
        var signalled: [Result] = []
        if let signals {
            progress("signals: \(signals.share) of each user's training ratings only finished")
            signalled = try signalRows(share: signals.share, seed: signals.seed, history: history, watchedModel: scorer.model)
        }
        return [popular, itemKNN, plainEASE, implicitALS, served] + ablated + coldStart + newcomers + signalled
    }

    /// Each evaluated user cut to their first 3, 5 and 10 training ratings: popular against served.
    func coldStart(_ scorer: Scorer, _ history: History) -> [(popular: Result, served: Result)] {
        Self.coldStartHistories.map { first in
            let cut = coldStartUsers(rated: first, history)
            return (
                measure("popular (first \(first))", cut) { history.popular(excluding: Set(history.ratingsOf($0).prefix(first).map(\.movieId))) },
                measure("served (first \(first))", cut) { scorer.topMovieIds(history.profile($0, genres: movies.genres, first: first), limit: Self.cutoff) }
            )
        }
    }

    /// Item-kNN and plain EASE on the same cut histories, every kept rating a seed: what the
    /// personalised baselines make of a few ratings.
    func coldStartBaselines(_ knn: ItemKNN, _ ease: ItemSimilarityModel, _ history: History) -> [(itemKNN: Result, ease: Result)] {
        Self.coldStartHistories.map { first in
            let cut = coldStartUsers(rated: first, history)
            let seeds = { @Sendable (user: Int64) in history.ratingsOf(user).prefix(first).map(\.movieId) }
            return (
                measure("item-knn (first \(first))", cut) { knn.top(seeds($0), limit: Self.cutoff) },
                measure("ease (first \(first))", cut) { ease.top(seeds: seeds($0), limit: Self.cutoff) }
            )
        }
    }

    /// The test users with more than `first` ratings, whose first `first` are the history kept.
    private func coldStartUsers(rated first: Int, _ history: History) -> [Int64] {
        split.test.keys.sorted().filter { history.ratingsOf($0).count > first }
    }

    /// The served model's worst NDCG@10 ratio to most-popular over the cold-start histories.
    func coldStartWorstRatio(_ model: ItemSimilarityModel, _ history: History) -> Double {
        coldStart(servedScorer(model, history), history).map { $0.served.ndcg / max($0.popular.ndcg, .leastNonzeroMagnitude) }.min() ?? 0
    }

    /// The `limit` films with the highest `scores` (indexed like `movieIds`), `excluding` left out; ties
    /// to the lower id.
    static func best(_ scores: [Double], of movieIds: [Int64], excluding: [Int64], limit: Int) -> [Int64] {
        let own = Set(excluding)
        return movieIds.indices.lazy.filter { !own.contains(movieIds[$0]) }
            .best(limit) { (scores[$0], movieIds[$1]) > (scores[$1], movieIds[$0]) }
            .map { movieIds[$0] }
    }

    /// The item–item weights under `parameters`, trained on the training part.
    func trained(_ parameters: ItemSimilarityModel.Parameters) throws -> ItemSimilarityModel {
        try Self.trained(split.train, parameters)
    }

    /// The weights trained on `ratings`, each user's in the order they were made (what the sequence
    /// weights learn from), as the server reads them from its log.
    static func trained(_ ratings: [RatingRecord], _ parameters: ItemSimilarityModel.Parameters) throws -> ItemSimilarityModel {
        let inTimeOrder = ratings.sorted { ($0.timestamp, $0.movieId) < ($1.timestamp, $1.movieId) }
        return try ItemSimilarityModel.train(inTimeOrder.map { ($0.userId, $0.movieId) }, parameters: parameters)
    }

    /// `trained(parameters)`, or one of `known` (trained on this training part) when it was trained
    /// the same way: whether negative weights are kept is read, not trained.
    func trained(_ parameters: ItemSimilarityModel.Parameters, reusing known: [ItemSimilarityModel]) throws -> ItemSimilarityModel {
        try Self.trained(split.train, parameters, reusing: known)
    }

    /// `trained(ratings, parameters)`, or one of `known` (trained on `ratings`) when it was trained the same way.
    static func trained(_ ratings: [RatingRecord], _ parameters: ItemSimilarityModel.Parameters, reusing known: [ItemSimilarityModel]) throws -> ItemSimilarityModel {
        func training(_ parameters: ItemSimilarityModel.Parameters) -> ItemSimilarityModel.Parameters {
            var training = parameters
            training.keepsNegativeWeights = true
            return training
        }
        guard let model = known.first(where: { training($0.parameters) == training(parameters) }) else { return try trained(ratings, parameters) }
        return model.keepingNegativeWeights(parameters.keepsNegativeWeights)
    }

    /// The ALS baseline's NDCG@10 alone, trained under `parameters`: what its tuning compares.
    func alsNDCG(_ parameters: ImplicitALS.Parameters, _ history: History) throws -> Double {
        let als = try ImplicitALS.train(userMovies: history.userMovies, parameters: parameters)
        return try measure("als", split.test.keys.sorted()) { try als.top(seeds: history.userMovies[$0] ?? [], limit: Self.cutoff) }.ndcg
    }

    /// Plain EASE's NDCG@10 alone, over `ease` (trained with negative weights): what its tuning compares.
    func easeNDCG(_ ease: ItemSimilarityModel, _ history: History) -> Double {
        measure("ease", split.test.keys.sorted()) { ease.top(seeds: history.userMovies[$0] ?? [], limit: Self.cutoff) }.ndcg
    }

    /// The served model's NDCG@10 alone, over `model` and this evaluation's scoring constants: what
    /// tuning compares (one trained model serves every genre share and half-life).
    func servedNDCG(_ model: ItemSimilarityModel, _ history: History) -> Double {
        let scorer = servedScorer(model, history)
        return measure("served", split.test.keys.sorted()) { scorer.topMovieIds(history.profile($0, genres: movies.genres), limit: Self.cutoff) }.ndcg
    }

    func servedScorer(_ model: ItemSimilarityModel, _ history: History) -> Scorer {
        constants.served.scorer(
            model: model, catalog: CatalogSnapshot(titles: movies.titles, genres: movies.genres, ratingCounts: history.counts),
            signalWeight: constants.signalWeight
        )
    }

    /// `top` for every user, on every core (it reads only values that do not change), then its
    /// quality; its time per user is each user's own, while the other cores rank too. A `top` that
    /// fails (ALS's solve can find its matrix not positive definite) fails the row.
    /// `relevant`: each user's films to find; the split's test part unless given.
    func measure<Failure: Error>(
        _ name: String, _ users: [Int64], relevant: [Int64: Set<Int64>]? = nil, top: @Sendable (Int64) throws(Failure) -> [Int64]
    ) throws(Failure) -> Result {
        let clock = ContinuousClock()
        let ranked = try EveryCore.map(users.count) { index throws(Failure) in
            let start = clock.now
            return (list: try top(users[index]), busy: clock.now - start)
        }
        return quality(name, users, relevant: relevant ?? split.test, lists: ranked.map(\.list), seconds: ranked.reduce(Duration.zero) { $0 + $1.busy }.seconds)
    }

    /// `lists[i]` is `users[i]`'s top films.
    private func quality(_ name: String, _ users: [Int64], relevant byUser: [Int64: Set<Int64>], lists: [[Int64]], seconds: Double) -> Result {
        var precision = 0.0, recall = 0.0, ndcg = 0.0, hits = 0.0
        var recommended = Set<Int64>()
        for (userId, list) in zip(users, lists) {
            let relevant = byUser[userId] ?? []
            recommended.formUnion(list)
            let found = list.filter(relevant.contains).count
            precision += Double(found) / Double(Self.cutoff)
            recall += Double(found) / Double(relevant.count)
            hits += found > 0 ? 1 : 0
            let dcg = list.enumerated().reduce(0.0) { $0 + (relevant.contains($1.element) ? 1 / log2(Double($1.offset + 2)) : 0) }
            let ideal = (0..<min(relevant.count, Self.cutoff)).reduce(0.0) { $0 + 1 / log2(Double($1 + 2)) }
            ndcg += dcg / ideal
        }
        let n = Double(max(users.count, 1))
        return Result(
            model: name, precision: precision / n, recall: recall / n, ndcg: ndcg / n, hitRate: hits / n,
            coverage: Double(recommended.count) / Double(max(catalogSize, 1)), users: users.count,
            millisecondsPerUser: seconds * 1000 / n
        )
    }
}

/// The training ratings, by user (in time order) and by film.
struct History {
    let byUser: [Int64: [RatingRecord]]
    let userMovies: [Int64: [Int64]]
    let counts: [Int64: Int]
    let byPopularity: [Int64]

    init(_ train: [RatingRecord]) {
        var byUser: [Int64: [RatingRecord]] = [:], counts: [Int64: Int] = [:]
        for rating in train {
            byUser[rating.userId, default: []].append(rating)
            counts[rating.movieId, default: 0] += 1
        }
        self.byUser = byUser.mapValues { $0.sorted { ($0.timestamp, $0.movieId) < ($1.timestamp, $1.movieId) } }
        userMovies = self.byUser.mapValues { $0.map(\.movieId) }
        self.counts = counts
        byPopularity = counts.keys.sorted { (counts[$0] ?? 0, $1) > (counts[$1] ?? 0, $0) }
    }

    func ratingsOf(_ userId: Int64) -> [RatingRecord] { byUser[userId] ?? [] }
    func moviesOf(_ userId: Int64) -> Set<Int64> { Set(userMovies[userId] ?? []) }

    func popular(excluding own: Set<Int64>) -> [Int64] {
        Array(byPopularity.lazy.filter { !own.contains($0) }.prefix(OfflineEvaluation.cutoff))
    }

    /// The user's taste from their training ratings, or only their `first` ones.
    func profile(_ userId: Int64, genres: [Int64: [String]], first: Int? = nil) -> TasteProfile {
        var profile = TasteProfile(ratings: [:], likedByGenre: [:])
        // Positions in time order, as the log's would be: what recency weighting reads.
        for (order, rating) in ratingsOf(userId).prefix(first ?? .max).enumerated() {
            let rated = TasteProfile.Rated(rating: rating.rating, position: UInt64(order + 1))
            profile.ratings[rating.movieId] = rated
            if rated.liked { for genre in genres[rating.movieId] ?? [] { profile.likedByGenre[genre, default: 0] += 1 } }
        }
        return profile
    }
}

extension ItemSimilarityModel {
    /// Plain EASE's top films: the sum of every seed's row, the seeds left out.
    func top(seeds: [Int64], limit: Int) -> [Int64] {
        let scores = sums(of: seeds.compactMap { index[$0].map { ($0, 1) } })
        return OfflineEvaluation.best(scores, of: movieIds, excluding: seeds, limit: limit)
    }
}
