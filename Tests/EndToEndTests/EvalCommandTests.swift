import Foundation
import TestSupport
import Testing

/// Three of these run `nuvie eval --tune` (1,344 candidates) in a debug build: up to 90 s while every
/// other suite runs beside them.
@Suite(.timeLimit(.minutes(5))) struct EvalCommandTests {
    /// `nuvie eval --tune --format json`: one object per model and split, then the constants chosen on
    /// validation, with each split's figures.
    @Test(arguments: ["temporal", "random", "both"])
    func evalPrintsOneJSONObjectPerModel(split: String) async throws {
        let ratings = replayFixtures.appendingPathComponent("movielens-taste/ratings.csv").path
        let run = try await runNuvie(["eval", "--ratings", ratings, "--split", split, "--seed", "42", "--tune", "--format", "json"], logLevel: false)
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").filter { $0.hasPrefix("{") }
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let splits = split == "both" ? ["temporal", "random"] : [split]
        let objects = lines.filter { $0["model"] != nil }
        for kind in splits {
            let ofSplit = objects.filter { $0["split"] as? String == kind }
            #expect(ofSplit.compactMap { $0["model"] as? String }.prefix(5) == ["popular", "item-knn", "ease", "als", "served"])
            let rows = 5 + 4 * 3 * 2
            #expect(ofSplit.count == rows, "popular, item-kNN, EASE and served for users cut to their first 3, 5 and 10 ratings, and for new users")
        }
        #expect(objects.count == splits.count * 29)
        let tuning = try #require(lines.last?["tuning"] as? [String: Any])
        #expect(["lambda", "minimum_ratings", "genre_share", "recency_half_life", "recency_floor"].allSatisfy { tuning[$0] != nil })
        let measured = try #require(tuning["splits"] as? [String: [String: Any]])
        #expect(measured.keys.sorted() == splits.sorted())
        for kind in splits {
            #expect(["validation_ndcg@10", "ease_validation_ndcg@10", "ease_lambda", "ease_minimum_ratings"].allSatisfy { measured[kind]?[$0] != nil })
            let als = try #require(measured[kind]?["als"] as? [String: Any])
            #expect(["factors", "regularisation", "confidence", "validation_ndcg@10"].allSatisfy { als[$0] != nil })
        }
        for object in objects {
            for key in ["precision@10", "recall@10", "ndcg@10", "hitrate@10", "coverage@10"] {
                #expect((0...1).contains(object[key] as? Double ?? -1), "\(key) in \(object)")
            }
        }
    }

    @Test func evalReadsTheClassicTabSeparatedFormatAndRefusesGarbage() async throws {
        let directory = try TemporaryDirectory()
        let csv = try String(contentsOf: replayFixtures.appendingPathComponent("movielens-taste/ratings.csv"), encoding: .utf8)
        let tabbed = csv.split(separator: "\n").dropFirst().map { $0.replacingOccurrences(of: ",", with: "\t") }.joined(separator: "\n")
        let udata = directory.url.appendingPathComponent("u.data")
        try Data(tabbed.utf8).write(to: udata)
        let run = try await runNuvie(["eval", "--ratings", udata.path, "--minimum-ratings", "2"], logLevel: false)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("served") && run.output.contains("ndcg@10"))

        let garbage = directory.url.appendingPathComponent("garbage.csv")
        try Data("userId,movieId,rating,timestamp\n1,2,three,4\n".utf8).write(to: garbage)
        let refused = try await runNuvie(["eval", "--ratings", garbage.path], logLevel: false)
        #expect(refused.status != 0 && refused.output.contains("holds no ratings") && refused.output.contains("garbage.csv:2: rating three"), "\(refused.output)")
    }

    /// Rows that are not ratings are reported with their file and line and left out; `--strict`
    /// refuses the file and evaluates nothing.
    @Test func evalReportsEveryBadRowAndStrictRefusesTheFile() async throws {
        let directory = try TemporaryDirectory()
        let good = try String(contentsOf: replayFixtures.appendingPathComponent("movielens-taste/ratings.csv"), encoding: .utf8)
        let goodLines = good.split(separator: "\n").count
        let bad = ["0,3,4.0,1500000000", "1,3,0,1500000000", "1,3,7,1500000000", "1,3,4.25,1500000000", "1,3,4.0,-1", "1,-3,4.0,1500000000"]
        let file = directory.url.appendingPathComponent("ratings.csv")
        try Data((good + bad.joined(separator: "\n") + "\n").utf8).write(to: file)

        let movies = replayFixtures.appendingPathComponent("movielens-taste/movies.csv").path
        let run = try await runNuvie(["eval", "--ratings", file.path, "--movies", movies, "--minimum-ratings", "2", "--format", "json"], logLevel: false)
        #expect(run.status == 0, "\(run.output)")
        for (offset, row) in bad.enumerated() {
            #expect(run.output.contains("ratings.csv:\(goodLines + offset + 1): "), "line of \(row) reported: \(run.output)")
        }
        func quality(_ output: String) -> [String] {
            output.split(separator: "\n").filter { $0.hasPrefix("{") }
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .map { "\($0["model"] ?? "") \($0["ndcg@10"] ?? "") \($0["recall@10"] ?? "") \($0["users"] ?? "")" }
        }
        let clean = try await runNuvie(
            ["eval", "--ratings", replayFixtures.appendingPathComponent("movielens-taste/ratings.csv").path, "--movies", movies, "--minimum-ratings", "2", "--format", "json"],
            logLevel: false
        )
        #expect(quality(run.output).count == 29 && quality(run.output) == quality(clean.output), "nothing learned from the bad rows")

        let strict = try await runNuvie(["eval", "--ratings", file.path, "--strict"], logLevel: false)
        #expect(strict.status != 0 && strict.output.contains("6 rows rejected") && !strict.output.contains("ndcg"), "\(strict.output)")
    }

    /// `--ablate` adds the served model with each of its choices undone alone; `--validation` measures
    /// on the validation split instead of the test part (fewer training ratings, the same users).
    @Test func ablationsAndTheValidationSplit() async throws {
        let ratings = replayFixtures.appendingPathComponent("movielens-taste/ratings.csv").path
        func models(_ extra: [String]) async throws -> [[String: Any]] {
            let run = try await runNuvie(["eval", "--ratings", ratings, "--minimum-ratings", "2", "--format", "json"] + extra, logLevel: false)
            #expect(run.status == 0, "\(run.output)")
            return run.output.split(separator: "\n").filter { $0.hasPrefix("{") }
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        let ablated = try await models(["--ablate"]).compactMap { $0["model"] as? String }
        #expect(Array(ablated[5..<14]) == [
            "served − recency", "served − recency floor", "served − genre", "served − sequence", "served − popularity blend",
            "served − negative weights (dropped)",
            "served − rating floor (5)", "served − films rated, not liked",
            "served, films rated but not liked at half weight",
        ])
        let signals = try await models(["--signals", "0.5"]).compactMap { $0["model"] as? String }.suffix(3)
        #expect(Array(signals) == ["unused", "seeds", "seeds and training (as served)"].map { "served, 50% of ratings only finished: \($0)" })
        #expect(try await runNuvie(["eval", "--ratings", ratings, "--signals", "1.5"], logLevel: false).status != 0)
        let test = try await models([]), validation = try await models(["--validation"])
        #expect(test.count == validation.count)
        #expect(test.map { $0["ndcg@10"] as? Double } != validation.map { $0["ndcg@10"] as? Double })
    }
}
