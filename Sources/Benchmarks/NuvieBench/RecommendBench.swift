import ReadModels
import NuvieApp
import NuvieCommands
import ArgumentParser
import EventLog
import Foundation
import Logging
import NuvieProjections
import NuvieRecommendations

/// `nuvie-bench recommend`: training time of the model on the demo, and the time to compute one
/// user's 50 recommendations with their explanations (what a feed request costs when its cache is
/// cold), for every demo user.
struct RecommendBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recommend",
        abstract: "Train the model on the demo and compute every demo user's recommendations (the feed's uncached path)."
    )

    @Option(help: "How many times to train and to go through every user.")
    var runs = 3

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() async throws {
        NuvieBench.bootstrapLogging()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-bench-recommend-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let store = try await SyntheticRatings.demoLog(padding: 0, dataset: nil, in: scratch)
        defer { store.log.close() }
        let database = try ReadDatabase(path: scratch.appendingPathComponent("read/read.sqlite").path)
        defer { try? database.close() }
        try ProjectionRunner(log: store.log, personalData: store.personalData, database: database, batchSize: 5000, logger: Logger(label: "bench"))
            .catchUp()
        let recommender = Recommender(inputs: RecommendationInputQueries(database: database), logger: Logger(label: "bench"))

        var training: [Double] = [], p50: [Double] = [], p99: [Double] = [], worst: [Double] = []
        for run in 1...runs {
            let started = ContinuousClock.now
            let trained = try recommender.train()
            training.append((ContinuousClock.now - started).seconds)
            var latencies: [Double] = []
            for userId in Int64(1)...610 {
                let begun = ContinuousClock.now
                _ = try await recommender.recommend(RecommendQuery(requestId: "bench", userId: userId, limit: 50))
                latencies.append((ContinuousClock.now - begun).seconds * 1000)
            }
            latencies.sort()
            p50.append(latencies[latencies.count / 2])
            p99.append(latencies[latencies.count * 99 / 100])
            worst.append(latencies[latencies.count - 1])
            BenchFigures.progress("run \(run)/\(runs): trained on \(trained.model.count) films in \(String(format: "%.2f", training.last ?? 0)) s; p99 \(String(format: "%.2f", p99.last ?? 0)) ms")
        }
        print("recommendation model on the demo, \(runs) runs (min / median / max)")
        print(BenchFigures.line("training, s", training, format: "%.2f"))
        print(BenchFigures.line("50 recommendations with reasons, p50 ms (610 users)", p50, format: "%.2f"))
        print(BenchFigures.line("50 recommendations with reasons, p99 ms (610 users)", p99, format: "%.2f"))
        print(BenchFigures.line("50 recommendations with reasons, max ms (610 users)", worst, format: "%.2f"))
    }
}
