import ArgumentParser
import Foundation
import PersonalData

/// `nuvie-bench personal-data`: what sealing personal fields costs, on a real key store in a temp
/// dir: sealing and opening one value with its key cached, a user's first key (one synced write),
/// and a thousand users' first keys in one transaction (what an import does).
struct PersonalDataBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "personal-data",
        abstract: "The cost of sealing personal fields: seal and open one value (key cached), a first key alone, a thousand first keys at once."
    )

    @Option(help: "Values sealed and opened per run.")
    var values = 200_000

    @Option(help: "Runs of each measurement.")
    var runs = 3

    func validate() throws {
        guard runs >= 1, values >= 1_000 else { throw ValidationError("--runs at least 1, --values at least 1000") }
    }

    static let review = "A film about memory and loss, and the best score of the decade"

    func run() async throws {
        NuvieBench.bootstrapLogging()
        let review = Self.review
        var seal: [Double] = [], open: [Double] = [], firstKey: [Double] = [], batch: [Double] = []
        for run in 1...runs {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-bench-keys-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let keys = try KeyStore(dataDirectory: directory, masterKey: try MasterKey.demo(file: directory.appendingPathComponent("master-key")))
            defer { try? keys.close() }
            let cipher = KeyStoreCipher(keys: keys)

            var started = ContinuousClock.now
            _ = try cipher.seal(review, owner: 1, field: "comment")
            firstKey.append((ContinuousClock.now - started).seconds * 1_000)

            started = ContinuousClock.now
            var sealed: [String] = []
            sealed.reserveCapacity(values)
            for index in 0..<values { sealed.append(try cipher.seal(review + "\(index)", owner: 1, field: "comment")) }
            seal.append((ContinuousClock.now - started).seconds * 1_000_000 / Double(values))

            started = ContinuousClock.now
            for value in sealed { _ = try cipher.open(value, owner: 1, field: "comment") }
            open.append((ContinuousClock.now - started).seconds * 1_000_000 / Double(values))

            started = ContinuousClock.now
            try await cipher.prepareKeys(for: Set(2...1_001))
            batch.append((ContinuousClock.now - started).seconds * 1_000)
            BenchFigures.progress("run \(run)/\(runs) done")
        }
        print("personal data, \(values) values of \(Self.review.utf8.count) bytes per run, min / median / max of \(runs) runs")
        print(BenchFigures.line("seal one value, key cached (µs)", seal, format: "%.2f"))
        print(BenchFigures.line("open one value, key cached (µs)", open, format: "%.2f"))
        print(BenchFigures.line("a user's first key, one synced write (ms)", firstKey, format: "%.2f"))
        print(BenchFigures.line("1,000 users' first keys, one transaction (ms)", batch, format: "%.1f"))
    }
}
