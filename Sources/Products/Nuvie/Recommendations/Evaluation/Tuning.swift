import NuvieMovieLens

/// Choosing the served model's constants honestly: on a validation split carved from the training
/// part only (each user's latest 20 % of their training ratings for the temporal split, a seeded
/// 20 % for the random one), never on the test part. Every point of the grid is trained on the rest
/// of the training part and measured on validation; the best NDCG@10 wins (ties: the earlier point).
/// Plain EASE, the baseline, gets the same search of its λ and minimum ratings.
public enum Tuning {
    public struct Choice: Sendable, Equatable {
        public var constants: OfflineEvaluation.Constants
        /// The chosen constants' NDCG@10 on the validation split: the served model's, plain EASE's.
        public var validationNDCG: Double
        public var easeValidationNDCG: Double
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
    /// In ratings; nil: no decay.
    public static let recencyHalfLives: [Double?] = [nil, 30, 10, 5, 3]

    public static func choose(
        for evaluation: OfflineEvaluation, kind: Split.Kind, seed: UInt64, progress: (String) -> Void = { _ in }
    ) throws -> Choice {
        let validation = Split(evaluation.split.train, kind: kind, seed: seed)
        let history = History(validation.train)
        func probe(_ constants: OfflineEvaluation.Constants) -> OfflineEvaluation {
            OfflineEvaluation(split: validation, movies: evaluation.movies, constants: constants, catalogSize: evaluation.catalogSize)
        }
        let base = probe(evaluation.constants)
        var best: (OfflineEvaluation.Constants, Double)?
        var bestEASE: (ItemSimilarityModel.Parameters, Double)?
        var tried = 0
        for lambda in lambdas {
            for minimum in minimumRatings {
                // One trained model for every genre share and half-life: they only score with it.
                let model = try base.trained(.init(minimumRatings: minimum, lambda: lambda))
                for genreShare in genreShares {
                    for halfLife in recencyHalfLives {
                        let constants = OfflineEvaluation.Constants(lambda: lambda, minimumRatings: minimum, genreShare: genreShare, recencyHalfLife: halfLife)
                        let ndcg = probe(constants).servedNDCG(model, history)
                        tried += 1
                        progress("tune: λ \(lambda), ≥ \(minimum) ratings, genre share \(genreShare), half-life \(halfLife.map { "\($0)" } ?? "none"): validation NDCG@10 \(ndcg)")
                        if ndcg > best?.1 ?? -1 { best = (constants, ndcg) }
                    }
                }
                let parameters = ItemSimilarityModel.Parameters(minimumRatings: minimum, lambda: lambda, keepsNegativeWeights: true)
                let ndcg = base.easeNDCG(try base.trained(parameters), history)
                tried += 1
                progress("tune: plain EASE λ \(lambda), ≥ \(minimum) ratings: validation NDCG@10 \(ndcg)")
                if ndcg > bestEASE?.1 ?? -1 { bestEASE = (parameters, ndcg) }
            }
        }
        guard let (chosen, ndcg) = best, let (ease, easeNDCG) = bestEASE else {
            return Choice(constants: evaluation.constants, validationNDCG: 0, easeValidationNDCG: 0, candidates: 0)
        }
        var constants = chosen
        constants.ease = ease
        return Choice(constants: constants, validationNDCG: ndcg, easeValidationNDCG: easeNDCG, candidates: tried)
    }
}
