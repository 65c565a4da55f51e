import NuvieMovieLens

/// Choosing the served model's constants honestly: on validation splits carved from the training
/// part only (each user's latest 20 % of their training ratings for the temporal split, a seeded
/// 20 % for the random one), never on the test part. The baselines get searches of their own on
/// each split first: plain EASE's λ and minimum ratings, and ALS's `alsGrid`. The served model's
/// weights are plain EASE's own, as that search chose them (one model per choice: the splits
/// usually agree); every scoring constant of the served grid is then measured with them on every
/// split asked for; the point whose worst ratio to that split's best plain EASE is highest wins. Points within
/// `nearlyAsGood` of it are as good for that goal, within what another seed moves: among them the
/// one whose cold start (first 3, 5 and 10 ratings) has the best worst ratio to most-popular wins
/// (ties: the earlier point). On one split that is the best NDCG@10; on both, the constants that
/// hold on either protocol.
public enum Tuning {
    public struct Choice: Sendable, Equatable {
        public struct Baseline: Sendable, Equatable {
            public var parameters: ImplicitALS.Parameters
            public var ndcg: Double
        }

        public struct Validation: Sendable, Equatable {
            public var served: Double
            public var ease: Double
        }

        public var constants: OfflineEvaluation.Constants
        /// Per split: the chosen constants' NDCG@10 on validation, and plain EASE's best there.
        public var validation: [Split.Kind: Validation]
        /// Per split: plain EASE's own best parameters.
        public var ease: [Split.Kind: ItemSimilarityModel.Parameters]
        /// Per split: the ALS baseline's own best parameters, and its validation NDCG@10 with them.
        public var als: [Split.Kind: Baseline]
        public var candidates: Int
    }

    public static let lambdas: [Double] = [250, 500, 1000]
    /// Not below 10: the weights are an n × n triangle of the films kept, and on the bundled data 5
    /// keeps 1.6 times the films of 10 (2.6 times the memory, 4 times the training) for a validation
    /// NDCG@10 within 0.0001 of it.
    public static let minimumRatings = [10, 20]
    /// Never 0: a recommendation that can say "a match with your taste in Drama" is the product's
    /// (README), so the search is over how much, not whether.
    public static let genreShares = [0.05, 0.15]
    /// In ratings, each with a floor (the least an old liked film counts); nil: no decay.
    public static let recencies: [(halfLife: Double?, floor: Double)] = [(nil, 1)] + [5.0, 10].flatMap { halfLife in
        [0.25, 0.5, 0.75, 1].map { (halfLife, $0) }
    }
    /// What every rated film's sequence weights count, and what they count more the more recent it is
    /// (`Scorer.sequenceWeight`, `Scorer.recentSequenceWeight`); (0, 0): item–item weights alone.
    public static let sequenceWeights: [(every: Double, recent: Double)] = [
        (0, 0), (0.1, 0.1), (0.1, 0.3), (0.3, 0.1), (0.3, 0.3), (0.5, 0.3), (0.5, 0.5), (1, 0.5),
    ]

    /// What a film rated but not liked counts beside a liked one: 0 (only liked films), a quarter,
    /// a half, as much.
    public static let otherRatingsWeights = [0, 0.5, 1]
    /// The ratings at which the popularity blend ends (`Scorer.fullHistory`).
    public static let fullHistories = [10.0, 20, 30]

    /// Every scoring constant searched for one trained model (λ and minimum ratings).
    static func scoringGrid(lambda: Double, minimumRatings: Int) -> [OfflineEvaluation.Constants] {
        genreShares.flatMap { genreShare in
            recencies.flatMap { recency in
                sequenceWeights.flatMap { sequence in
                    otherRatingsWeights.flatMap { other in
                        fullHistories.map { fullHistory in
                            var served = RecommenderConstants()
                            (served.lambda, served.minimumRatings, served.genreShare) = (lambda, minimumRatings, genreShare)
                            (served.recencyHalfLife, served.recencyFloor) = (recency.halfLife, recency.floor)
                            (served.sequenceWeight, served.recentSequenceWeight) = (sequence.every, sequence.recent)
                            (served.otherRatingsWeight, served.fullHistory) = (other, fullHistory)
                            return OfflineEvaluation.Constants(served: served)
                        }
                    }
                }
            }
        }
    }

    /// The ALS baseline's search (`ImplicitALS`), per split: latent factors × regularisation × confidence.
    public static let alsGrid: [ImplicitALS.Parameters] = [32, 64].flatMap { factors in
        [1.0, 10, 100].flatMap { regularisation in
            [2.0, 10, 40].map { ImplicitALS.Parameters(factors: factors, regularisation: regularisation, confidence: $0) }
        }
    }

    /// How far below the best worst ratio a point still counts as nearly as good.
    public static let nearlyAsGood = 0.005

    public static func choose(
        for evaluations: [OfflineEvaluation], seed: UInt64, progress: (String) -> Void = { _ in }
    ) throws -> Choice {
        let probes = evaluations.map { evaluation in
            let validation = evaluation.onValidation(seed: seed)
            return (kind: validation.split.kind, history: History(validation.split.train), base: validation)
        }
        var tried = 0
        var bestEASE: [Split.Kind: (ItemSimilarityModel.Parameters, Double)] = [:]
        // Every model plain EASE's search trains, per probe: the served model is trained on one of them.
        var easeModels = [[ItemSimilarityModel]](repeating: [], count: probes.count)
        for (index, probe) in probes.enumerated() {
            for lambda in lambdas {
                for minimum in minimumRatings {
                    let parameters = ItemSimilarityModel.Parameters(minimumRatings: minimum, lambda: lambda, keepsNegativeWeights: true)
                    let model = try probe.base.trained(parameters)
                    easeModels[index].append(model)
                    let ndcg = probe.base.easeNDCG(model, probe.history)
                    tried += 1
                    progress("tune (\(probe.kind.rawValue)): plain EASE λ \(lambda), ≥ \(minimum) ratings: validation NDCG@10 \(ndcg)")
                    if ndcg > bestEASE[probe.kind]?.1 ?? -1 { bestEASE[probe.kind] = (parameters, ndcg) }
                }
            }
        }
        var trainedModels: [ItemSimilarityModel.Parameters: [ItemSimilarityModel]] = [:]
        var measured: [(constants: OfflineEvaluation.Constants, worstRatio: Double, ndcg: [Split.Kind: Double])] = []
        let weights = Set(bestEASE.values.map(\.0)).sorted { ($0.lambda, $0.minimumRatings) < ($1.lambda, $1.minimumRatings) }
        for parameters in weights {
            // One trained model per split for every scoring constant: they only score with it.
            let models = try zip(probes, easeModels).map { try $0.base.trained(parameters, reusing: $1) }
            trainedModels[parameters] = models
            for constants in scoringGrid(lambda: parameters.lambda, minimumRatings: parameters.minimumRatings) {
                var ndcg: [Split.Kind: Double] = [:], worstRatio = Double.infinity
                for (probe, model) in zip(probes, models) {
                    let served = probe.base.with(constants).servedNDCG(model, probe.history)
                    ndcg[probe.kind] = served
                    worstRatio = min(worstRatio, served / max(bestEASE[probe.kind]?.1 ?? 1, .leastNonzeroMagnitude))
                }
                tried += 1
                progress("tune: \(constants.served.text): worst ratio to plain EASE \(worstRatio); NDCG@10 \(ndcg.sorted { $0.key.rawValue > $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))")
                measured.append((constants, worstRatio, ndcg))
            }
        }
        let top = measured.map(\.worstRatio).max() ?? 0
        var bestALS: [Split.Kind: Choice.Baseline] = [:]
        for probe in probes {
            for parameters in alsGrid {
                let ndcg = try probe.base.alsNDCG(parameters, probe.history)
                tried += 1
                progress("tune (\(probe.kind.rawValue)): ALS \(parameters.factors) factors, regularisation \(parameters.regularisation), confidence \(parameters.confidence): validation NDCG@10 \(ndcg)")
                if ndcg > bestALS[probe.kind]?.ndcg ?? -1 { bestALS[probe.kind] = .init(parameters: parameters, ndcg: ndcg) }
            }
        }
        var best: (point: (constants: OfflineEvaluation.Constants, worstRatio: Double, ndcg: [Split.Kind: Double]), coldStart: Double)?
        for point in measured where point.worstRatio >= top - nearlyAsGood {
            let models = trainedModels[point.constants.model] ?? []
            let coldStart = zip(probes, models).map { probe, model in
                probe.base.with(point.constants).coldStartWorstRatio(model, probe.history)
            }.min() ?? 0
            progress("tune: nearly as good, worst ratio \(point.worstRatio): \(point.constants.served.text): cold start's worst ratio to popular \(coldStart)")
            if coldStart > best?.coldStart ?? -.infinity { best = (point, coldStart) }
        }
        guard let best = best?.point else { return Choice(constants: evaluations.first?.constants ?? .init(), validation: [:], ease: [:], als: [:], candidates: 0) }
        return Choice(
            constants: best.constants,
            validation: bestEASE.reduce(into: [:]) { $0[$1.key] = .init(served: best.ndcg[$1.key] ?? 0, ease: $1.value.1) },
            ease: bestEASE.mapValues(\.0), als: bestALS, candidates: tried
        )
    }
}
