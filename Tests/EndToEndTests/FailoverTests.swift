import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Losing the database machine: `scripts/serve-cluster.sh --standby` (three Savry nodes, nginx, a
/// primary PostgreSQL and its synchronous standby), 32 writers through nginx, and kill -9 of the
/// primary with every process of it; the standby promoted as `ops/postgresql.md` says, and the lost
/// server rebuilt as the new one's standby, while reads go on. `FAILOVER_CYCLES` of them (1 here;
/// `scripts/failover-cycles.sh` runs 100, alternating which server is the primary).
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(60)))
struct FailoverTests {
    static var cycles: Int { Int(ProcessInfo.processInfo.environment["FAILOVER_CYCLES"] ?? "") ?? 1 }

    struct Acknowledged: Sendable {
        var writer: Int
        var n: Int
        var at: ContinuousClock.Instant
    }

    /// What the writers were told, while they write.
    final class Writes: Sendable {
        let acknowledged = NIOLockedValueBox<[Acknowledged]>([])
        /// The other answers, by status (0: none), as a client retrying under its key would see them.
        let refused = NIOLockedValueBox<[Int: Int]>([:])
        /// Reads' answers, by status, all along.
        let reads = NIOLockedValueBox<[Int: Int]>([:])
        let going = NIOLockedValueBox(true)
    }

    @Test func thePrimaryKilledDuringWritesAndItsStandbyPromotedLosesNothingAcknowledgedAndDoublesNothing() async throws {
        let directory = try TemporaryDirectory()
        let cluster = try await ServerProcess.cluster(
            "savry", nodes: 3, directory: directory.url, options: ["--standby"], environment: ["SAVRY_RATE_LIMIT_PER_MINUTE": "0"]
        )
        defer { cluster.stopWhenLeaving() }
        let nodePorts = try ClusterConsistencyTests.nodePorts(of: cluster, count: 3)
        var tokens: [String] = []
        for writer in 0..<ClusterConsistencyTests.writers { tokens.append(try await SavryEndToEndTests.signIn(cluster, "cook-\(writer)")) }
        let recipe: @Sendable (Int, Int) -> String = { writer, n in #"{"name":"Dish \#(n) of cook \#(writer)","ingredients":[{"name":"salt"}],"instructions":["Stir"]}"# }

        let writes = Writes()
        let writers = Task { [cluster, tokens] in
            await withTaskGroup(of: Void.self) { group in
                for reader in 0..<4 {
                    group.addTask {
                        while writes.going.withLockedValue({ $0 }) {
                            let reply = try? await cluster.get("/api/app/recipes?limit=5", token: tokens[reader])
                            writes.reads.withLockedValue { $0[reply.map { Int($0.status) } ?? 0, default: 0] += 1 }
                            try? await Task.sleep(for: .milliseconds(50))
                        }
                    }
                }
                for writer in tokens.indices {
                    group.addTask {
                        var n = 0
                        while writes.going.withLockedValue({ $0 }) {
                            n += 1
                            let reply = try? await cluster.post("/api/app/recipes", recipe(writer, n), token: tokens[writer], headers: ["Idempotency-Key": "w\(writer)-\(n)"])
                            if reply?.status == 201 {
                                writes.acknowledged.withLockedValue { $0.append(Acknowledged(writer: writer, n: n, at: .now)) }
                            } else {
                                writes.refused.withLockedValue { $0[reply.map { Int($0.status) } ?? 0, default: 0] += 1 }
                            }
                        }
                    }
                }
            }
        }

        var servers = [directory.url.appendingPathComponent("postgres"), directory.url.appendingPathComponent("postgres-2")]
        var promotionToFirstWrite: [Duration] = [], deathToFirstWrite: [Duration] = []
        for cycle in 1...Self.cycles {
            try await Task.sleep(for: .seconds(2))
            #expect(try await TestPostgres.script("role", servers[0]).hasPrefix("primary"), "cycle \(cycle)")
            _ = try await TestPostgres.script("kill", servers[0])
            let died = ContinuousClock.now
            _ = try await TestPostgres.script("promote", servers[1])
            let promoted = ContinuousClock.now
            let written = try await SharedLogNodeTests.eventually(within: .seconds(60)) {
                writes.acknowledged.withLockedValue { $0.contains { $0.at > promoted } }
            }
            #expect(written, "cycle \(cycle): a write acknowledged on the promoted server: \(cluster.everythingSaid().suffix(3_000))")
            if let first = writes.acknowledged.withLockedValue({ $0.filter { $0.at > promoted }.map(\.at).min() }) {
                promotionToFirstWrite.append(first - promoted)
                deathToFirstWrite.append(first - died)
            }
            _ = try await TestPostgres.script("standby", servers[0], servers[1])
            servers.reverse()
        }
        try await Task.sleep(for: .seconds(2))
        writes.going.withLockedValue { $0 = false }
        await writers.value

        let serverURL = try String(contentsOf: servers[0].appendingPathComponent("url"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let shared = try await TestPostgres.head(of: serverURL.replacingOccurrences(of: "/postgres?", with: "/savry?"))
        let caughtUp = try await SharedLogNodeTests.eventually(within: .seconds(60)) {
            try await nodePorts.asyncMap { try await ClusterConsistencyTests.health(port: $0).json["logHeadPosition"] as? Int }.allSatisfy { $0 == Int(shared) }
        }
        #expect(caughtUp, "every node at the shared head \(shared)")

        // Exactly once: every acknowledged recipe is there, and no recipe is there twice (an append
        // retried across the failover under its event ids, or by nginx on another node, is recognised).
        let acknowledgedNames = writes.acknowledged.withLockedValue { $0 }.map { "Dish \($0.n) of cook \($0.writer)" }
        var lost = 0, doubled = 0
        for (writer, token) in tokens.enumerated() {
            let names = try await SavryEndToEndTests.walk(cluster, token: token, limit: 50).compactMap { $0["name"] as? String }
            doubled += names.count - Set(names).count
            lost += Set(acknowledgedNames.filter { $0.hasSuffix(" of cook \(writer)") }).subtracting(names).count
        }
        #expect(lost == 0 && doubled == 0, "\(acknowledgedNames.count) acknowledged: \(lost) lost, \(doubled) doubled")
        let readAnswers = writes.reads.withLockedValue { $0 }
        // A refused read once came with no clue (every answer 401 from one node, it seemed): what the nodes said shows why.
        #expect(
            readAnswers.keys.sorted() == [200],
            "reads are served all through the failovers: \(readAnswers)\(readAnswers.keys.sorted() == [200] ? "" : "; the nodes said: \(cluster.everythingSaid().suffix(8_000))")"
        )
        try await ClusterConsistencyTests.expectEveryNodeVerifies(directory.url, nodes: 3)
        print("""
            failover figures: \(Self.cycles) cycles, \(acknowledgedNames.count) writes acknowledged, \(lost) lost, \(doubled) doubled, \
            other answers \(writes.refused.withLockedValue { $0 }.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }), \
            reads \(readAnswers.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }); \
            promotion to the first acknowledged write \(Self.percentiles(promotionToFirstWrite)); \
            primary's death to the first acknowledged write \(Self.percentiles(deathToFirstWrite))
            """)
        await cluster.stop()
    }

    static func percentiles(_ durations: [Duration]) -> String {
        let sorted = durations.sorted()
        guard !sorted.isEmpty else { return "(none)" }
        func at(_ fraction: Double) -> String {
            let value = sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded(.up)))]
            return String(format: "%.2f s", Double(value.components.seconds) + Double(value.components.attoseconds) / 1e18)
        }
        return "p50 \(at(0.5)), p99 \(at(0.99)), max \(at(1))"
    }
}
