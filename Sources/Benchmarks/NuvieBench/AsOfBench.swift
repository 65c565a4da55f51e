import SeededRandom
import NuvieCommands
import ArgumentParser
import NuvieApp
import NuvieDomain
import EventLog
import Foundation
import NuvieProjections

/// `nuvie as-of --user`'s fast path timed: one user's view at a random position of the demo log,
/// optionally padded with synthetic ratings, for seeded random users and positions.
struct AsOfBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "as-of", abstract: "Time one user's view as of a random position (the demo log, or a synthetic log of --events events).")

    @OptionGroup var demoLog: DemoLogOptions

    @Option(help: "How many runs (each a different seed).")
    var runs = 3

    @Option(help: "Views timed per run.")
    var samples = 50

    func validate() throws {
        guard runs >= 1, samples >= 1 else { throw ValidationError("--runs and --samples must be at least 1") }
    }

    func run() async throws {
        NuvieBench.bootstrapLogging()
        try await demoLog.withLog { store, _ in try timeViews(in: store) }
    }

    private func timeViews(in store: NuvieStore) throws {
        let log = store.log
        let users = try log.streamIds(withPrefix: NuvieStreams.userPrefix).compactMap { Int64($0.dropFirst(NuvieStreams.userPrefix.count)) }
        guard !users.isEmpty else { throw ValidationError("the log has no users") }
        var medians: [Double] = []
        var slowest: [Double] = []
        for run in 1...runs {
            var random = SplitMix64(seed: UInt64(run))
            var milliseconds: [Double] = []
            for _ in 1...samples {
                let user = users[Int.random(in: 0..<users.count, using: &random)]
                let position = UInt64.random(in: 1...log.headPosition, using: &random)
                let started = ContinuousClock.now
                let database = try UserAsOf.readModels(of: user, at: position, in: log, personalData: store.personalData)
                _ = try UserSnapshot.json(user: user, database: database, position: position, recommendations: nil)
                milliseconds.append((ContinuousClock.now - started).seconds * 1000)
                try database.close()
            }
            milliseconds.sort()
            medians.append(milliseconds[milliseconds.count / 2])
            slowest.append(milliseconds[milliseconds.count - 1])
            BenchFigures.progress(String(format: "run %d/%d: median %.1f ms, slowest %.1f ms", run, runs, medians[run - 1], slowest[run - 1]))
        }
        print("one user's view as of a random position, \(log.headPosition) events, \(users.count) users, \(samples) views per run, \(runs) runs")
        print(BenchFigures.line("median view (ms)", medians, format: "%.1f"))
        print(BenchFigures.line("slowest view of a run (ms)", slowest, format: "%.1f"))
    }
}
