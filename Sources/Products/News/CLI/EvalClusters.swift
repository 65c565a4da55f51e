import ArgumentParser
import Foundation
import NewsApp
import NewsDomain

/// `news eval-clusters [--seed N] [--noise X] [--stories N --days D]`: story groups and de-duplication against the synthetic
/// generator's truth (the figures in BENCHMARKS.md).
struct EvalClusters: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-clusters", abstract: "Cluster a synthetic set and score the groups (B-cubed) and the copies found against the generator's truth."
    )

    @Option(help: "The generator's seed (default: the demo's).")
    var seed: UInt64 = SyntheticNews.defaultSeed

    @Option(help: "The share of words replaced by filler, 0 to 0.9: noisier wording.")
    var noise: Double = 0

    @Option(help: "How many events (the demo's 80); with --days, a set of any size and density.")
    var stories = 80

    @Option(help: "The days they spread over (the demo's 30).")
    var days = SyntheticNews.days

    func validate() throws {
        guard (0...0.9).contains(noise) else { throw ValidationError("--noise must be from 0 to 0.9") }
        guard stories > 0, days > 0 else { throw ValidationError("--stories and --days must be positive") }
    }

    func run() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("news-eval-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let evaluation = try await ClusterEvaluation.run(seed: seed, noise: noise, stories: stories, days: days, in: scratch)
        print("seed \(seed), noise \(noise), \(stories) events over \(days) days: \(evaluation)")
    }
}
