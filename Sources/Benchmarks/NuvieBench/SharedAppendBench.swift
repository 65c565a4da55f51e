import ArgumentParser
import EventLog
import Foundation
import PostgresLog

/// `nuvie-bench shared-append --server-url postgres://…`: durable appends to the PostgreSQL log through
/// 1 and 3 nodes (each an `EventLog` with its own copy, as a node has), beside the embedded log in
/// the same run; then how soon a write acknowledged on one node is visible on another.
struct SharedAppendBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shared-append",
        abstract: "Durable appends on the PostgreSQL log through 1 and 3 nodes vs. the embedded log; write-to-visible latency across nodes."
    )

    @Option(help: "A PostgreSQL server to create a fresh database in for every run (scripts/postgres.sh start prints one).")
    var serverURL: String

    @Option(help: "Concurrent writers, each awaiting its own appends one after another, spread over the nodes.")
    var writers = 64

    @Option(help: "Events per run (one event per append).")
    var events = 50_000

    @Option(help: "Runs of each measurement.")
    var runs = 3

    @Option(help: "Appends per second on node A while node B's visibility is timed.")
    var visibilityRate = 2_000

    @Option(help: "Seconds of the visibility measurement.")
    var visibilitySeconds = 10

    func run() async throws {
        NuvieBench.bootstrapLogging()
        var table: [(String, [Double], String)] = []
        for nodes in [0, 1, 3] {
            let name = nodes == 0 ? "embedded log (LMDB)" : "PostgreSQL, \(nodes) node\(nodes == 1 ? "" : "s")"
            var rates: [Double] = [], p50s: [Double] = [], p99s: [Double] = []
            for run in 1...runs {
                let result = try await measure(nodes: nodes)
                rates.append(result.eventsPerSecond)
                p50s.append(result.p50 * 1000)
                p99s.append(result.p99 * 1000)
                BenchFigures.progress("\(name), run \(run)/\(runs): \(Int(result.eventsPerSecond)) events/s, p99 \(String(format: "%.2f", result.p99 * 1000)) ms")
            }
            table.append(("\(writers) writers, \(name): events/s", rates, "%.0f"))
            table.append(("\(writers) writers, \(name): p50 ack ms", p50s, "%.3f"))
            table.append(("\(writers) writers, \(name): p99 ack ms", p99s, "%.3f"))
        }
        var visibleP50: [Double] = [], visibleP99: [Double] = []
        for run in 1...runs {
            let (p50, p99) = try await visibility()
            visibleP50.append(p50 * 1000)
            visibleP99.append(p99 * 1000)
            BenchFigures.progress("visibility, run \(run)/\(runs): p50 \(String(format: "%.2f", p50 * 1000)) ms, p99 \(String(format: "%.2f", p99 * 1000)) ms")
        }
        table.append(("acked on A → visible on B at \(visibilityRate)/s: p50 ms", visibleP50, "%.2f"))
        table.append(("acked on A → visible on B at \(visibilityRate)/s: p99 ms", visibleP99, "%.2f"))
        print("durable appends, one event each, \(runs) runs (min / median / max)")
        for (name, values, format) in table { print(BenchFigures.line(name, values, format: format)) }
    }

    /// `nodes` logs sharing a fresh database (0: one embedded log), `writers` tasks spread over them.
    private func measure(nodes: Int) async throws -> AppendBench.Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-bench-shared-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let logs = try await openNodes(max(nodes, 1), shared: nodes > 0, in: scratch)
        defer { for log in logs { log.close() } }
        return try await AppendBench.measure(writers: writers, events: events, spreadOver: logs)
    }

    /// Node A appends at `visibilityRate`; node B notes when each position reaches its copy.
    private func visibility() async throws -> (p50: Double, p99: Double) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-bench-visible-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let logs = try await openNodes(2, shared: true, in: scratch)
        defer { for log in logs { log.close() } }
        let (a, b) = (logs[0], logs[1])
        let total = visibilityRate * visibilitySeconds
        let seen = Task {
            var at: [UInt64: ContinuousClock.Instant] = [:]
            var last: UInt64 = 0
            while at.count < total, !Task.isCancelled {
                await b.waitForEvents(after: last)
                let now = ContinuousClock.now, head = b.headPosition
                if head > last { for position in (last + 1)...head { at[position] = now } }
                last = head
            }
            return at
        }
        let payload = Data(#"{"n":1}"#.utf8)
        let interval = Duration.seconds(1) / visibilityRate
        let start = ContinuousClock.now
        let acked = try await withThrowingTaskGroup(of: (UInt64, ContinuousClock.Instant).self) { group in
            for n in 0..<total {
                group.addTask {
                    try await Task.sleep(until: start + interval * n, clock: .continuous)
                    let result = try await a.append(to: "visible-\(n % 64)", expectedVersion: .any, events: [NewEvent(type: "bench.visible", payload: payload)])
                    return (result.lastPosition, ContinuousClock.now)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        let visible = await seen.value
        let delays = acked.compactMap { position, ackedAt in visible[position].map { max(0, ($0 - ackedAt).seconds) } }.sorted()
        guard !delays.isEmpty else { throw ValidationError("node B saw nothing") }
        return (delays[delays.count / 2], delays[min(delays.count - 1, delays.count * 99 / 100)])
    }

    private func openNodes(_ count: Int, shared: Bool, in scratch: URL) async throws -> [EventLog] {
        let database = shared ? try await PostgresSharedLog.createDatabase(on: serverURL, named: "bench_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))") : nil
        var logs: [EventLog] = []
        for node in 0..<count {
            let sharedLog: (any SharedLog)? = if let database { try await PostgresSharedLog(url: database, product: "bench") } else { nil }
            let log = try EventLog(configuration: .init(directory: scratch.appendingPathComponent("node-\(node)"), initialMapSize: 1 << 30, shared: sharedLog))
            try await log.catchUpWithSharedLog()
            logs.append(log)
        }
        return logs
    }
}
