import SeededRandom
import PersonalData
import ReadModels
import EventSourcing
import NuvieApp
import ArgumentParser
import NuvieCommands
import NuvieDomain
import EventLog
import Foundation
import Logging
import NuvieProjections
import ProductHosting

/// `nuvie-bench …`: measured figures, printed as min / median / max over several runs.
@main
struct NuvieBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nuvie-bench",
        abstract: "Nuvie's benchmarks. Each prints min / median / max over --runs runs.",
        subcommands: [RebuildBench.self, AsOfBench.self, AppendBench.self, SharedAppendBench.self, HTTPBench.self, RecommendBench.self, SoakBench.self, PersonalDataBench.self, MemoryBench.self]
    )

    /// Logging as `nuvie` does it, at warning: once, before anything logs.
    static func bootstrapLogging() {
        _ = Bootstrap.logging(NuvieProduct.self, level: "warning")
    }
}

/// Full rebuild of every projection from an event log: the demo import, optionally padded with
/// synthetic ratings to `--events`, folded into a fresh read database per run.
struct RebuildBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rebuild", abstract: "Rebuild every projection from the demo log (or a synthetic log of --events events).")

    @OptionGroup var demoLog: DemoLogOptions

    @Option(help: "How many rebuilds to time.")
    var runs = 3

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() async throws {
        NuvieBench.bootstrapLogging()
        try await demoLog.withLog { store, scratch in try timeRebuilds(of: store, in: scratch) }
    }

    private func timeRebuilds(of store: NuvieStore, in scratch: URL) throws {
        let log = store.log
        let total = log.headPosition
        var rates: [Double] = []
        for run in 1...runs {
            let database = try ReadDatabase(path: scratch.appendingPathComponent("run-\(run)/read.sqlite").path)
            let started = ContinuousClock.now
            try ProjectionRunner(log: log, personalData: store.personalData, database: database, batchSize: 5000, logger: Logger(label: "bench"))
                .catchUp()
            let seconds = (ContinuousClock.now - started).seconds
            try database.close()
            rates.append(Double(total) / seconds)
            BenchFigures.progress("run \(run)/\(runs): \(total) events in \(String(format: "%.2f", seconds)) s")
        }
        let sorted = rates.sorted()
        let seconds = sorted.map { Double(total) / $0 }
        print("rebuild of \(total) events, \(NuvieReadModels.all.count) projections, \(runs) runs")
        print(String(format: "events/s  min %.0f  median %.0f  max %.0f", sorted[0], sorted[sorted.count / 2], sorted[sorted.count - 1]))
        print(String(format: "seconds   min %.2f  median %.2f  max %.2f", seconds.last ?? 0, seconds[seconds.count / 2], seconds.first ?? 0))
    }
}

/// The log a bench runs on: the bundled demo, optionally padded with synthetic ratings.
struct DemoLogOptions: ParsableArguments {
    @Option(help: "Pad the demo log with synthetic ratings up to this many events (0: the demo log as imported).")
    var events = 0

    @Option(help: "The MovieLens directory to import (default: the bundled demo).")
    var dataset: String?

    @Option(help: "Build the log in this directory and keep it; a later run given the same directory reuses it.")
    var logDir: String?

    func validate() throws {
        guard events >= 0 else { throw ValidationError("--events must not be negative") }
    }

    /// Runs `body` with the log and a scratch directory, which is removed afterwards (with the log,
    /// unless `--log-dir` keeps it elsewhere).
    func withLog(_ body: (NuvieStore, URL) async throws -> Void) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let store = try await SyntheticRatings.demoLog(padding: events, dataset: dataset, in: logDir.map { URL(fileURLWithPath: $0) } ?? scratch)
        defer { store.log.close() }
        try await body(store, scratch)
    }
}

/// Appends re-ratings by the demo's users of the demo's films, with a fixed seed, until the log
/// holds the wanted number of events: the same shape of load the demo has, only more of it.
struct SyntheticRatings {
    let store: NuvieStore
    var log: EventLog { store.log }

    /// The bundled demo imported into the log in `directory`, padded up to `events` events (a log
    /// already there is reused as it is), with its key store beside it under a master key kept there.
    static func demoLog(padding events: Int, dataset: String?, in directory: URL) async throws -> NuvieStore {
        let log = try EventLog(configuration: .init(directory: directory.appendingPathComponent("log"), initialMapSize: 1 << 30))
        do {
            let keys = try KeyStore(dataDirectory: directory, masterKey: try MasterKey.demo(file: directory.appendingPathComponent("demo-master-key")))
            let store = NuvieStore(log: log, personalData: KeyStoreCipher(keys: keys))
            if log.headPosition == 0 {
                BenchFigures.progress("importing the demo dataset")
                _ = try await MovieLensImporter(store: store).importDirectory(try DemoDataset.locate(dataset))
            } else {
                BenchFigures.progress("reusing the log in \(directory.path): \(log.headPosition) events")
            }
            if events > Int(log.headPosition) { try await SyntheticRatings(store: store).pad(to: events) { BenchFigures.progress("synthetic events: \($0)/\(events)") } }
            return store
        } catch {
            log.close()
            throw error
        }
    }

    func pad(to target: Int, progress: (Int) -> Void) async throws {
        var movies: [Int64] = []
        var users = Set<Int64>()
        var position: UInt64 = 1
        while true {
            let batch = try log.read(from: position, limit: 20_000)
            guard let last = batch.last else { break }
            for event in batch {
                switch try store.decode(event).event {
                case .movieAdded(let movie): movies.append(movie.movieId)
                case .userRegistered(let user): users.insert(user.userId)
                default: break
                }
            }
            position = last.position + 1
        }
        let userIds = users.sorted()
        guard !movies.isEmpty, !userIds.isEmpty else { return }
        var random = SplitMix64(seed: 7)
        var ratings: [String: Double] = [:]
        var at = try log.event(at: log.headPosition)?.recordedAt ?? Date()
        while Int(log.headPosition) < target {
            let count = min(5_000, target - Int(log.headPosition))
            var appends: [StreamAppend] = []
            for _ in 0..<count {
                let user = userIds[Int.random(in: 0..<userIds.count, using: &random)]
                let movie = movies[Int.random(in: 0..<movies.count, using: &random)]
                let stream = NuvieStreams.rating(userId: user, movieId: movie)
                let rating = Double(Int.random(in: 1...10, using: &random)) / 2
                at += 1
                let rated = MovieRated(userId: user, movieId: movie, rating: rating, previousRating: ratings[stream], comment: nil, isReview: false)
                ratings[stream] = rating
                appends.append(StreamAppend(streamId: stream, expectedVersion: .any, events: [try await store.newEvent(.movieRated(rated), recordedAt: at)]))
            }
            _ = try await log.append(appends)
            progress(Int(log.headPosition))
        }
    }
}
