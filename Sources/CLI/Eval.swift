import ArgumentParser
import Foundation
import NuvieMovieLens
import NuvieRecommendations

/// `nuvie eval --ratings FILE`: offline top-10 quality of most-popular, plain item-kNN and the model
/// we serve, on one split of a MovieLens ratings file.
struct Eval: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate the served recommender against most-popular and item-kNN on a MovieLens ratings file.",
        discussion: """
            FILE is ml-latest's ratings.csv (userId,movieId,rating,timestamp) or the classic u.data \
            (user item rating timestamp). Each user's ratings are split 80/20: temporal holds out each \
            user's latest 20 % (by timestamp, then film id), random a seeded shuffle's 20 %. A held-out \
            film is relevant whatever its rating. Genres for the served model's genre term come from \
            movies.csv beside FILE when there is one (or --movies).
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

    @Option(help: "Films rated fewer times are left out of the item–item weights.")
    var minimumRatings: Int = ItemSimilarityModel.Parameters().minimumRatings

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
        let evaluation = OfflineEvaluation(
            ratings: records, split: split, seed: seed, movies: catalog,
            parameters: .init(minimumRatings: minimumRatings)
        )
        let results = try evaluation.run { step in
            FileHandle.standardError.write(Data("eval: \(step)\n".utf8))
        }
        switch format {
        case .json:
            for result in results { print(try Self.jsonLine(result)) }
        case .table:
            print("split: \(split.rawValue) (seed \(seed)), \(records.count) ratings (\(rejected.count) rows rejected), \(evaluation.split.test.count) users evaluated, top \(OfflineEvaluation.cutoff)")
            print(["model", "precision@10", "recall@10", "ndcg@10", "hitrate@10", "coverage@10", "ms/user"].joined(separator: "\t"))
            for r in results {
                print([r.model, f(r.precision), f(r.recall), f(r.ndcg), f(r.hitRate), f(r.coverage), String(format: "%.3f", r.millisecondsPerUser)].joined(separator: "\t"))
            }
        }
    }

    private func f(_ value: Double) -> String { String(format: "%.4f", value) }

    static func jsonLine(_ r: OfflineEvaluation.Result) throws -> String {
        let object: [String: Any] = [
            "model": r.model, "precision@10": r.precision, "recall@10": r.recall, "ndcg@10": r.ndcg,
            "hitrate@10": r.hitRate, "coverage@10": r.coverage, "users": r.users, "ms_per_user": r.millisecondsPerUser,
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}

extension Split.Kind: ExpressibleByArgument {}
