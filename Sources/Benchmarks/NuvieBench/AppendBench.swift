import ArgumentParser
import EventLog
import Foundation
import ReadModels

/// `nuvie-bench append`: durable appends through group commit against one commit per event, both
/// measured in the same run on fresh logs, with the same writers.
struct AppendBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Durable appends: --writers concurrent writers with group commit vs. one commit per event, and one writer alone."
    )

    @Option(help: "Concurrent writers, each awaiting its own appends one after another.")
    var writers = 64

    @Option(help: "Events per run with group commit (one event per append).")
    var events = 200_000

    @Option(help: "Events per run with one commit per event (each is an fsync: keep it small).")
    var baselineEvents = 5_000

    @Option(help: "Runs of each measurement.")
    var runs = 3

    func validate() throws {
        guard runs >= 1, writers >= 1, events >= writers, baselineEvents >= 5 else {
            throw ValidationError("--runs and --writers must be at least 1, --events at least --writers, --baseline-events at least 5")
        }
    }

    func run() async throws {
        NuvieBench.bootstrapLogging()
        var table: [(String, [Double], String)] = []
        for (name, grouping, writers, total) in [
            ("\(writers) writers, one commit per event", false, writers, baselineEvents),
            ("\(writers) writers, group commit", true, writers, events),
            ("1 writer, one commit per event", false, 1, baselineEvents / 5),
            ("1 writer, group commit", true, 1, baselineEvents / 5),
        ] {
            var rates: [Double] = [], p50s: [Double] = [], p99s: [Double] = []
            for run in 1...runs {
                let result = try await Self.measure(writers: writers, events: total, grouping: grouping)
                rates.append(result.eventsPerSecond)
                p50s.append(result.p50 * 1000)
                p99s.append(result.p99 * 1000)
                BenchFigures.progress("\(name), run \(run)/\(runs): \(Int(result.eventsPerSecond)) events/s, p99 \(String(format: "%.2f", result.p99 * 1000)) ms")
            }
            table.append(("\(name): events/s", rates, "%.0f"))
            table.append(("\(name): p50 ack ms", p50s, "%.3f"))
            table.append(("\(name): p99 ack ms", p99s, "%.3f"))
        }
        print("durable appends, one event each, \(runs) runs (min / median / max)")
        for (name, values, format) in table { print(BenchFigures.line(name, values, format: format)) }
    }

    struct Result {
        var eventsPerSecond: Double
        var p50: Double
        var p99: Double
    }

    /// A fresh log; `writers` tasks append `events` events between them, each append awaited.
    static func measure(writers: Int, events: Int, grouping: Bool) async throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-bench-append-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let log = try EventLog(configuration: .init(directory: scratch, initialMapSize: 1 << 30, groupCommit: grouping))
        defer { log.close() }
        return try await measure(writers: writers, events: events, spreadOver: [log])
    }

    /// `writers` tasks, spread over `logs`, append `events` events between them, each append awaited.
    static func measure(writers: Int, events: Int, spreadOver logs: [EventLog]) async throws -> Result {
        let payload = Data(#"{"userId":1,"movieId":2,"rating":4.5,"previousRating":null,"comment":null,"isReview":false,"stars":5}"#.utf8)
        let perWriter = max(1, events / writers)
        let started = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for writer in 0..<writers {
                let log = logs[writer % logs.count]
                group.addTask {
                    var own: [Double] = []
                    own.reserveCapacity(perWriter)
                    for index in 0..<perWriter {
                        let event = NewEvent(type: "bench.appended", schemaVersion: 1, recordedAt: Date(), payload: payload)
                        let begun = ContinuousClock.now
                        _ = try await log.append(to: "bench-\(writer)-\(index % 16)", expectedVersion: .any, events: [event])
                        own.append((ContinuousClock.now - begun).seconds)
                    }
                    return own
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }.sorted()
        }
        let elapsed = (ContinuousClock.now - started).seconds
        return Result(
            eventsPerSecond: Double(latencies.count) / elapsed,
            p50: latencies[latencies.count / 2], p99: latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        )
    }
}

/// How the benchmarks print: figures on standard output, progress on standard error.
enum BenchFigures {
    /// A new directory under the system's temporary one for a run's files, named `nuvie-bench-<name>-…`.
    static func scratchDirectory(_ name: String) throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-bench-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return scratch
    }

    static func progress(_ text: String) {
        FileHandle.standardError.write(Data("\(text)\n".utf8))
    }

    /// One figure's line: name, then min / median / max.
    static func line(_ name: String, _ values: [Double], format: String) -> String {
        let sorted = values.sorted()
        let f = { String(format: format, $0) }
        return "\(name.padding(toLength: 58, withPad: " ", startingAt: 0))  \(f(sorted[0])) / \(f(sorted[sorted.count / 2])) / \(f(sorted[sorted.count - 1]))"
    }
}
