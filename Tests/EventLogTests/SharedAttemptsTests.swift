import EventLog
import Foundation
import Testing
import TestSupport

/// Attempts counted among every node of a PostgreSQL log (`SharedAttempts`): a limit holds across
/// nodes, under nodes counting at once, and each attempt leaves when it expires or is taken back.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct SharedAttemptsTests {
    @Test func anEmbeddedLogCountsNothingAmongNodes() async throws {
        let place = try await LogPlace(.lmdb)
        let log = try await place.open()
        defer { log.close() }
        #expect(log.sharedAttempts == nil)
    }

    @Test func aLimitHoldsAcrossNodesAndUntilAnAttemptExpires() async throws {
        let nodes = try await Nodes(2)
        defer { nodes.close() }
        let (onA, onB) = try (#require(nodes.logs[0].sharedAttempts), #require(nodes.logs[1].sharedAttempts))
        let keys = [(key: "account", limit: 3), (key: "address", limit: 10)]

        let first = [UUID(), UUID(), UUID()]
        #expect(try await onA.count(first[0], under: keys, lasting: .seconds(60)) == nil)
        #expect(try await onB.count(first[1], under: keys, lasting: .seconds(60)) == nil)
        #expect(try await onA.count(first[2], under: keys, lasting: .seconds(50)) == nil)
        let refusal = try #require(try await onB.count(UUID(), under: keys, lasting: .seconds(60)), "a fourth attempt, on another node, is refused")
        #expect(refusal == AttemptRefusal(wait: .seconds(1), failed: false), "all three are still being checked")
        // Refused, it was counted under neither key: the address has room for 10 - 3.
        for _ in 0..<7 { #expect(try await onA.count(UUID(), under: [(key: "address", limit: 10)], lasting: .seconds(60)) == nil) }
        #expect(try await onA.count(UUID(), under: [(key: "address", limit: 10)], lasting: .seconds(60)) != nil)

        for (n, attempt) in first.enumerated() { try await (n == 1 ? onB : onA).settle(attempt, under: ["account", "address"]) }
        let failed = try #require(try await onA.count(UUID(), under: keys, lasting: .seconds(60)))
        #expect(failed.failed && failed.wait > .seconds(1) && failed.wait <= .seconds(50), "checked, they wait for the oldest to expire: \(failed)")

        // An attempt leaves its key's count when it expires (started only now: a slow machine's
        // steps above would otherwise outlast it).
        let expiring = UUID()
        #expect(try await onA.count(expiring, under: [(key: "expiring", limit: 1)], lasting: .seconds(2)) == nil)
        try await onA.settle(expiring, under: ["expiring"])
        #expect(try await onB.count(UUID(), under: [(key: "expiring", limit: 1)], lasting: .seconds(60)) != nil)
        try await Task.sleep(for: .milliseconds(2_500))
        #expect(try await onB.count(UUID(), under: [(key: "expiring", limit: 1)], lasting: .seconds(60)) == nil)
        #expect(try await onA.count(UUID(), under: [(key: "expiring", limit: 1)], lasting: .seconds(60)) != nil)
    }

    @Test func anAttemptTakenBackAndAKeyClearedMakeRoom() async throws {
        let nodes = try await Nodes(2)
        defer { nodes.close() }
        let (onA, onB) = try (#require(nodes.logs[0].sharedAttempts), #require(nodes.logs[1].sharedAttempts))
        let keys = [(key: "account", limit: 2), (key: "address", limit: 3)]
        let first = UUID()
        #expect(try await onA.count(first, under: keys, lasting: .seconds(60)) == nil)
        #expect(try await onB.count(UUID(), under: keys, lasting: .seconds(60)) == nil)
        #expect(try await onA.count(UUID(), under: keys, lasting: .seconds(60)) != nil)

        try await onB.forget(first, under: ["account", "address"])
        #expect(try await onA.count(UUID(), under: keys, lasting: .seconds(60)) == nil, "the attempt taken back left room")
        #expect(try await onA.count(UUID(), under: [(key: "address", limit: 2)], lasting: .seconds(60)) != nil, "the address counts the other two")

        let last = UUID()
        try await onB.forget(last, under: ["address"], withEveryAttemptUnder: ["account"])
        #expect(try await onA.count(last, under: [(key: "account", limit: 2)], lasting: .seconds(60)) == nil)
        #expect(try await onA.count(UUID(), under: [(key: "account", limit: 2)], lasting: .seconds(60)) == nil, "the account was cleared")
    }

    @Test func nodesCountingAtOnceNeverPassTheLimit() async throws {
        let nodes = try await Nodes(3)
        defer { nodes.close() }
        let counters = try nodes.logs.map { try #require($0.sharedAttempts) }
        let counted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 0..<30 {
                group.addTask {
                    // Each attempt under both keys, in either order: the locks are taken in one order.
                    let keys = n.isMultiple(of: 2) ? [(key: "x", limit: 5), (key: "y", limit: 7)] : [(key: "y", limit: 7), (key: "x", limit: 5)]
                    return try await counters[n % 3].count(UUID(), under: keys, lasting: .seconds(60)) == nil
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(counted == 5)
    }

    /// Nodes of one new PostgreSQL log, each with its directory in `place`.
    struct Nodes {
        let place: LogPlace
        let logs: [EventLog]

        init(_ count: Int) async throws {
            place = try await LogPlace(.postgres)
            var logs: [EventLog] = []
            for node in 0..<count { logs.append(try await place.open("node-\(node)")) }
            self.logs = logs
        }

        func close() { for log in logs { log.close() } }
    }
}
