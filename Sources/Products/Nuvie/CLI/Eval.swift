import ArgumentParser
import Foundation
import NuvieMovieLens
import NuvieRecommendations

/// `nuvie eval --ratings FILE [--tune]`: offline top-10 quality of most-popular, plain item-kNN,
/// plain EASE and the model we serve, on one split of a MovieLens ratings file, and the cold start.
/// With `--tune` the served model's constants are chosen on a validation split of the training
/// part first (`Tuning`), and the test part is measured once, with them.
struct Eval: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate the served recommender against most-popular, item-kNN and plain EASE on a MovieLens ratings file.",
        discussion: """
            FILE is ml-latest's ratings.csv (userId,movieId,rating,timestamp) or the classic u.data \
            (user item rating timestamp). Each user's ratings are split 80/20: temporal holds out each \
            user's latest 20 % (by timestamp, then film id), random a seeded shuffle's 20 %. A held-out \
            film is relevant whatever its rating. Genres for the served model's genre term come from \
            movies.csv beside FILE when there is one (or --movies). --tune chooses λ, the minimum \
            ratings per film and the genre share on a validation split carved from the training part \
            only (the same kind of split, applied to it), then measures the test part once.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @Option(help: "The ratings file.")
    var ratings: String

    @Option(help: "ml-latest movies.csv (default: movies.csv beside the ratings file, when present).")
    var movies: String?

    @Option(help: "temporal (default) or random.")
    var split: Split.Kind = .temporal

    @Option(help: "Seed for the random split.")
    var seed: UInt64 = 42

    @Option(help: "Films rated fewer times are left out of the item–item weights (without --tune).")
    var minimumRatings: Int = ItemSimilarityModel.Parameters().minimumRatings

    @Flag(help: "Choose the served model's constants on a validation split of the training part, then measure the test part once.")
    var tune = false

    @Option(help: "table (default) or json (one object per line).")
    var format: Format = .table

    @Flag(help: "Any rejected row (ids ≤ 0, a rating off 0.5–5.0 in half stars, a bad timestamp) fails the run before anything is learned.")
    var strict = false

    func run() async throws {
        let ratingsURL = URL(fileURLWithPath: ratings)
        let (records, rejected) = try RatingsFile.read(ratingsURL)
        if !rejected.isEmpty {
            if strict { throw RowsRejected(rejected) }
            FileHandle.standardError.write(Data("eval: rejected, not learned from or evaluated:\n\(rejected.report)\n".utf8))
        }
        let moviesURL = movies.map(URL.init(fileURLWithPath:))
            ?? ratingsURL.deletingLastPathComponent().appendingPathComponent("movies.csv")
        let catalog = FileManager.default.fileExists(atPath: moviesURL.path) ? try RatingsFile.readMovies(moviesURL) : ([:], [:])
        let progress = { (step: String) in FileHandle.standardError.write(Data("eval: \(step)\n".utf8)) }
        var evaluation = OfflineEvaluation(
            ratings: records, split: split, seed: seed, movies: catalog, constants: .init(minimumRatings: minimumRatings)
        )
        let choice = try tune ? Tuning.choose(for: evaluation, kind: split, seed: seed, progress: progress) : nil
        if let choice {
            evaluation = OfflineEvaluation(ratings: records, split: split, seed: seed, movies: catalog, constants: choice.constants)
        }
        let results = try evaluation.run(progress: progress)
        switch format {
        case .json:
            for result in results { print(try Self.jsonLine(result)) }
            if let choice { print(try Self.jsonLine(choice)) }
        case .table:
            print("split: \(split.rawValue) (seed \(seed)), \(records.count) ratings (\(rejected.count) rows rejected), \(evaluation.split.test.count) users evaluated, top \(OfflineEvaluation.cutoff)")
            print(["model", "precision@10", "recall@10", "ndcg@10", "hitrate@10", "coverage@10", "ms/user"].joined(separator: "\t"))
            for r in results {
                print([r.model, f(r.precision), f(r.recall), f(r.ndcg), f(r.hitRate), f(r.coverage), String(format: "%.3f", r.millisecondsPerUser)].joined(separator: "\t"))
            }
            if let choice {
                let c = choice.constants
                print("""
                    tuned on validation (\(choice.candidates) candidates): served λ \(c.lambda), minimum ratings \(c.minimumRatings), \
                    genre share \(c.genreShare), recency half-life \(c.recencyHalfLife.map { "\($0) ratings" } ?? "none") \
                    (validation NDCG@10 \(f(choice.validationNDCG))); plain EASE λ \(c.ease.lambda), \
                    minimum ratings \(c.ease.minimumRatings) (validation NDCG@10 \(f(choice.easeValidationNDCG)))
                    """)
            }
        }
    }

    private func f(_ value: Double) -> String { String(format: "%.4f", value) }

    static func jsonLine(_ choice: Tuning.Choice) throws -> String {
        let object: [String: Any] = [
            "tuning": [
                "lambda": choice.constants.lambda, "minimum_ratings": choice.constants.minimumRatings,
                "genre_share": choice.constants.genreShare, "validation_ndcg@10": choice.validationNDCG, "candidates": choice.candidates,
                "recency_half_life": choice.constants.recencyHalfLife.map { $0 as Any } ?? NSNull(),
                "ease_lambda": choice.constants.ease.lambda, "ease_minimum_ratings": choice.constants.ease.minimumRatings,
                "ease_validation_ndcg@10": choice.easeValidationNDCG,
            ] as [String: Any],
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    static func jsonLine(_ r: OfflineEvaluation.Result) throws -> String {
        let object: [String: Any] = [
            "model": r.model, "precision@10": r.precision, "recall@10": r.recall, "ndcg@10": r.ndcg,
            "hitrate@10": r.hitRate, "coverage@10": r.coverage, "users": r.users, "ms_per_user": r.millisecondsPerUser,
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}

extension Split.Kind: ExpressibleByArgument {}
