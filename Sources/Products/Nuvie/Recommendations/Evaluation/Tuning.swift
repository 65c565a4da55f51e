import NuvieMovieLens

/// Choosing the served model's constants honestly: on validation splits carved from the training
/// part only (each user's latest 20 % of their training ratings for the temporal split, a seeded
/// 20 % for the random one), never on the test part. Plain EASE, the baseline, gets a search of its
/// own λ and minimum ratings on each split first. Every point of the served grid is then trained on
/// the rest of the training part and measured on every split asked for; the point whose worst ratio
/// to that split's best plain EASE is highest wins (ties: the earlier point). On one split that is
/// simply the best NDCG@10; on both it is the constants that hold on either protocol.
public enum Tuning {
    public struct Choice: Sendable, Equatable {
        public struct Validation: Sendable, Equatable {
            public var served: Double
            public var ease: Double
        }

        public var constants: OfflineEvaluation.Constants
        /// Per split: the chosen constants' NDCG@10 on validation, and plain EASE's best there.
        public var validation: [Split.Kind: Validation]
        /// Per split: plain EASE's own best parameters.
        public var ease: [Split.Kind: ItemSimilarityModel.Parameters]
        public var candidates: Int
    }

    public static let lambdas: [Double] = [100, 250, 500, 1000]
    /// Not below 10: the weights are an n × n matrix of the films kept, and on the bundled data 5
    /// keeps 1.6 times the films of 10 (2.6 times the memory, 4 times the training) for a validation
    /// NDCG@10 within 0.0001 of it.
    public static let minimumRatings = [10, 20]
    /// Never 0: a recommendation that can say "a match with your taste in Drama" is the product's
    /// (README), so the search is over how much, not whether.
    public static let genreShares = [0.05, 0.15, 0.3]
    /// In ratings, each with a floor (the least an old liked film counts); nil: no decay.
    public static let recencies: [(halfLife: Double?, floor: Double)] = [(nil, 1)] + [5.0, 10].flatMap { halfLife in
        [0.25, 0.5, 0.75].map { (halfLife, $0) }
    }

    public static func choose(
        for evaluations: [OfflineEvaluation], seed: UInt64, progress: (String) -> Void = { _ in }
    ) throws -> Choice {
        let probes = evaluations.map { evaluation in
            let validation = Split(evaluation.split.train, kind: evaluation.split.kind, seed: seed)
            return (kind: validation.kind, history: History(validation.train), base: OfflineEvaluation(
                split: validation, movies: evaluation.movies, constants: evaluation.constants, catalogSize: evaluation.catalogSize
            ))
        }
        var tried = 0
        var bestEASE: [Split.Kind: (ItemSimilarityModel.Parameters, Double)] = [:]
        for probe in probes {
            for lambda in lambdas {
                for minimum in minimumRatings {
                    let parameters = ItemSimilarityModel.Parameters(minimumRatings: minimum, lambda: lambda, keepsNegativeWeights: true)
                    let ndcg = probe.base.easeNDCG(try probe.base.trained(parameters), probe.history)
                    tried += 1
                    progress("tune (\(probe.kind.rawValue)): plain EASE λ \(lambda), ≥ \(minimum) ratings: validation NDCG@10 \(ndcg)")
                    if ndcg > bestEASE[probe.kind]?.1 ?? -1 { bestEASE[probe.kind] = (parameters, ndcg) }
                }
            }
        }
        var best: (constants: OfflineEvaluation.Constants, worstRatio: Double, ndcg: [Split.Kind: Double])?
        for lambda in lambdas {
            for minimum in minimumRatings {
                // One trained model per split for every genre share and recency: they only score with it.
                let models = try probes.map { try $0.base.trained(.init(minimumRatings: minimum, lambda: lambda)) }
                for genreShare in genreShares {
                    for recency in recencies {
                        let constants = OfflineEvaluation.Constants(
                            lambda: lambda, minimumRatings: minimum, genreShare: genreShare, recencyHalfLife: recency.halfLife, recencyFloor: recency.floor
                        )
                        var ndcg: [Split.Kind: Double] = [:], worstRatio = Double.infinity
                        for (probe, model) in zip(probes, models) {
                            let served = OfflineEvaluation(split: probe.base.split, movies: probe.base.movies, constants: constants, catalogSize: probe.base.catalogSize)
                                .servedNDCG(model, probe.history)
                            ndcg[probe.kind] = served
                            worstRatio = min(worstRatio, served / max(bestEASE[probe.kind]?.1 ?? 1, .leastNonzeroMagnitude))
                        }
                        tried += 1
                        progress("tune: λ \(lambda), ≥ \(minimum) ratings, genre share \(genreShare), half-life \(recency.halfLife.map { "\($0)" } ?? "none") floor \(recency.floor): worst ratio to plain EASE \(worstRatio)")
                        if worstRatio > best?.worstRatio ?? -1 { best = (constants, worstRatio, ndcg) }
                    }
                }
            }
        }
        guard let best else { return Choice(constants: evaluations.first?.constants ?? .init(), validation: [:], ease: [:], candidates: 0) }
        return Choice(
            constants: best.constants,
            validation: bestEASE.reduce(into: [:]) { $0[$1.key] = .init(served: best.ndcg[$1.key] ?? 0, ease: $1.value.1) },
            ease: bestEASE.mapValues(\.0), candidates: tried
        )
    }
}
