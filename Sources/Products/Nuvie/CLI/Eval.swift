import ArgumentParser
import Foundation
import NuvieMovieLens
import NuvieRecommendations

/// `nuvie eval --ratings FILE [--split both] [--tune]`: offline top-10 quality of most-popular, plain
/// item-kNN, plain EASE, implicit ALS and the model we serve, on one split of a MovieLens ratings file or both, and
/// the cold start. With `--tune` the served model's constants are chosen on validation splits of the
/// training part first (`Tuning`), and the test part is measured once, with them.
struct Eval: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate the served recommender against most-popular, item-kNN, plain EASE and implicit ALS on a MovieLens ratings file.",
        discussion: """
            FILE is ml-latest's ratings.csv (userId,movieId,rating,timestamp), ML-100K's u.data \
            (user item rating timestamp) or ML-1M's and ML-10M's ratings.dat (UserID::MovieID::Rating::Timestamp). Each user's ratings are split 80/20: temporal holds out each \
            user's latest 20 % (by timestamp, then film id), random a seeded shuffle's 20 %. A held-out \
            film is relevant whatever its rating. The cold start is measured twice: each evaluated user cut to their first 3, 5 \
            and 10 training ratings, and new users (a seeded fifth of the users held out whole) asked for their next 10 ratings \
            after their first 3, 5 and 10. Genres for the served model's genre term come from \
            movies.csv, movies.dat or u.item (with u.genre) beside FILE, the first there is (or --movies). --split both measures on each. \
            --tune chooses λ, the minimum ratings per film, the genre share, the recency, what a film rated \
            but not liked counts and where the popularity blend ends on \
            validation splits carved from the training part only (the same kinds of split, applied to \
            it; with both, the constants whose worse ratio to plain EASE is best, and among those nearly as \
            good, the best cold start), then measures the \
            test part once.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @Option(help: "The ratings file.")
    var ratings: String

    @Option(help: "The films' titles and genres: movies.csv, movies.dat or u.item (default: the first of them beside the ratings file).")
    var movies: String?

    /// Which splits to measure on: one, or both (and, with --tune, constants that hold on both).
    enum Splits: String, ExpressibleByArgument, CaseIterable {
        case temporal, random, both
        var kinds: [Split.Kind] { self == .both ? [.temporal, .random] : [self == .temporal ? .temporal : .random] }
    }

    @Option(help: "temporal (default), random, or both.")
    var split: Splits = .temporal

    @Option(help: "Seed for the random split.")
    var seed: UInt64 = 42

    @Option(help: "Films rated fewer times are left out of the item–item weights, the served model's and plain EASE's (without --tune; default: each its own).")
    var minimumRatings: Int?

    @Option(help: "The served model's constants, as NUVIE_RECOMMENDER takes them and --tune prints them (default: the served defaults; without --tune).")
    var served: String?

    @Flag(help: "Choose the served model's constants on validation splits of the training part (every split asked for), then measure the test part once.")
    var tune = false

    @Flag(help: "Also the served model with each of its choices undone alone (recency, its floor, genre, sequence, popularity blend, negative weights, rating floor, films rated but not liked left out or at half weight).")
    var ablate = false

    @Option(help: "Also measure implicit signals: this share (0–1) of each user's training ratings become films finished without a rating, and the served model ranks with them as seeds and without (SignalsEvaluation).")
    var signals: Double?

    @Flag(help: "Measure on a validation split carved from the training part (as --tune does), not on the test part: for exploring choices.")
    var validation = false

    @Option(help: "table (default) or json (one object per line).")
    var format: Format = .table

    @Flag(help: "Any rejected row (ids ≤ 0, a rating off 0.5–5.0 in half stars, a bad timestamp) fails the run before anything is learned.")
    var strict = false

    func validate() throws {
        if let signals, !(0...1).contains(signals) { throw ValidationError("--signals is a share of each user's ratings, from 0 to 1") }
        if let served {
            do { _ = try RecommenderConstants(served) } catch { throw ValidationError("--served: \(error)") }
        }
    }

    func run() async throws {
        let ratingsURL = URL(fileURLWithPath: ratings)
        let (records, rejected) = try RatingsFile.read(ratingsURL)
        if !rejected.isEmpty {
            if strict { throw RowsRejected(rejected) }
            FileHandle.standardError.write(Data("eval: rejected, not learned from or evaluated:\n\(rejected.report)\n".utf8))
        }
        let moviesURL = movies.map(URL.init(fileURLWithPath:)) ?? RatingsFile.movieFiles
            .map { ratingsURL.deletingLastPathComponent().appendingPathComponent($0) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
        let catalog: (titles: [Int64: String], genres: [Int64: [String]]) = try moviesURL.map(RatingsFile.readMovies) ?? ([:], [:])
        if catalog.genres.values.allSatisfy(\.isEmpty) {
            FileHandle.standardError.write(Data("eval: no film has a genre (\(moviesURL?.path ?? "no films' file beside the ratings")): the genre term adds nothing\n".utf8))
        }
        let progress = { (step: String) in FileHandle.standardError.write(Data("eval: \(step)\n".utf8)) }
        var constants = OfflineEvaluation.Constants(served: try served.map { try RecommenderConstants($0) } ?? .init())
        if let minimumRatings {
            constants.minimumRatings = minimumRatings
            constants.ease = .init(minimumRatings: minimumRatings, lambda: ItemSimilarityModel.Parameters.plainEASE.lambda, keepsNegativeWeights: true)
        }
        var evaluations = split.kinds.map { kind in
            OfflineEvaluation(ratings: records, split: kind, seed: seed, movies: catalog, constants: constants)
        }
        let choice = try tune ? Tuning.choose(for: evaluations, seed: seed, progress: progress) : nil
        if let choice {
            evaluations = split.kinds.map { kind in
                var constants = choice.constants
                constants.ease = choice.ease[kind] ?? constants.ease
                constants.als = choice.als[kind]?.parameters ?? constants.als
                return OfflineEvaluation(ratings: records, split: kind, seed: seed, movies: catalog, constants: constants)
            }
        }
        for evaluation in evaluations {
            let kind = evaluation.split.kind
            let measured = validation ? evaluation.onValidation(seed: seed) : evaluation
            let results = try measured.run(ablate: ablate, signals: signals.map { ($0, seed) }, progress: progress)
            switch format {
            case .json:
                for result in results { emit(try Self.jsonLine(result, split: kind)) }
            case .table:
                emit("split: \(kind.rawValue)\(validation ? " validation" : "") (seed \(seed)), \(records.count) ratings (\(rejected.count) rows rejected), \(measured.split.test.count) users evaluated, top \(OfflineEvaluation.cutoff)")
                emit(["model", "precision@10", "recall@10", "ndcg@10", "hitrate@10", "coverage@10", "ms/user"].joined(separator: "\t"))
                for r in results {
                    emit([r.model, f(r.precision), f(r.recall), f(r.ndcg), f(r.hitRate), f(r.coverage), String(format: "%.3f", r.millisecondsPerUser)].joined(separator: "\t"))
                }
                if let ease = results.first(where: { $0.model == "ease" })?.ndcg, let knn = results.first(where: { $0.model == "item-knn" })?.ndcg,
                   let served = results.first(where: { $0.model == "served" })?.ndcg, ease > 0, knn > 0 {
                    emit("served NDCG@10: \(String(format: "%.3f", served / ease))× plain EASE, \(String(format: "%.3f", served / knn))× item-kNN")
                }
                emit("cold start, served against popular, NDCG@10 at 3 / 5 / 10 ratings: \(Self.margins(results, "")); new users, their next \(NewUsers.next): \(Self.margins(results, "new, "))")
                emit()
            }
        }
        guard let choice else { return }
        switch format {
        case .json:
            emit(try Self.jsonLine(choice))
        case .table:
            let c = choice.constants
            emit("""
                tuned on validation (\(choice.candidates) candidates): served λ \(c.lambda), minimum ratings \(c.minimumRatings), \
                genre share \(c.genreShare), recency half-life \(c.recencyHalfLife.map { "\($0) ratings, floor \(c.recencyFloor)" } ?? "none"), \
                sequence weights \(c.sequenceWeight) + \(c.recentSequenceWeight) by recency, a film rated but not liked counts \(c.otherRatingsWeight), popularity blend until \(c.fullHistory) ratings
                  to serve them: NUVIE_RECOMMENDER='\(c.served.text)'
                """)
            for kind in split.kinds {
                guard let measured = choice.validation[kind], let ease = choice.ease[kind] else { continue }
                emit("  \(kind.rawValue): validation NDCG@10 \(f(measured.served)); plain EASE λ \(ease.lambda), minimum ratings \(ease.minimumRatings): \(f(measured.ease))")
                if let als = choice.als[kind] {
                    emit("  \(kind.rawValue): ALS \(als.parameters.factors) factors, regularisation \(als.parameters.regularisation), confidence \(als.parameters.confidence): \(f(als.ndcg))")
                }
            }
        }
    }

    private func f(_ value: Double) -> String { String(format: "%.4f", value) }

    /// One line to standard output in one write: progress goes to standard error meanwhile, and a
    /// reader of both in one pipe found it in the middle of a line once stdout's buffer filled (a
    /// JSON object cut in two).
    private func emit(_ line: String = "") {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// The served cold-start rows' NDCG@10 against popular's, at each history length (`kind`: "" for
    /// the split's own, "new, " for new users').
    static func margins(_ results: [OfflineEvaluation.Result], _ kind: String) -> String {
        OfflineEvaluation.coldStartHistories.map { first in
            let ndcg = { (model: String) in results.first { $0.model == "\(model) (\(kind)first \(first))" }?.ndcg }
            guard let served = ndcg("served"), let popular = ndcg("popular"), popular > 0 else { return "–" }
            return String(format: "%+.0f %%", (served / popular - 1) * 100)
        }.joined(separator: " / ")
    }

    static func jsonLine(_ choice: Tuning.Choice) throws -> String {
        let c = choice.constants
        let object: [String: Any] = [
            "tuning": [
                "lambda": c.lambda, "minimum_ratings": c.minimumRatings, "genre_share": c.genreShare, "candidates": choice.candidates,
                "recency_half_life": c.recencyHalfLife.map { $0 as Any } ?? NSNull(), "recency_floor": c.recencyFloor,
                "sequence_weight": c.sequenceWeight, "recent_sequence_weight": c.recentSequenceWeight, "other_ratings_weight": c.otherRatingsWeight, "full_history": c.fullHistory,
                "nuvie_recommender": c.served.text,
                "splits": Dictionary(uniqueKeysWithValues: choice.validation.map { kind, measured in
                    (kind.rawValue, [
                        "validation_ndcg@10": measured.served, "ease_validation_ndcg@10": measured.ease,
                        "ease_lambda": choice.ease[kind]?.lambda ?? 0, "ease_minimum_ratings": choice.ease[kind]?.minimumRatings ?? 0,
                        "als": alsJSON(choice.als[kind]),
                    ] as [String: Any])
                }),
            ] as [String: Any],
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    private static func alsJSON(_ als: Tuning.Choice.Baseline?) -> [String: Any] {
        guard let als else { return [:] }
        let p = als.parameters
        return ["factors": p.factors, "regularisation": p.regularisation, "confidence": p.confidence, "validation_ndcg@10": als.ndcg]
    }

    static func jsonLine(_ r: OfflineEvaluation.Result, split: Split.Kind) throws -> String {
        let object: [String: Any] = [
            "model": r.model, "split": split.rawValue, "precision@10": r.precision, "recall@10": r.recall, "ndcg@10": r.ndcg,
            "hitrate@10": r.hitRate, "coverage@10": r.coverage, "users": r.users, "ms_per_user": r.millisecondsPerUser,
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
