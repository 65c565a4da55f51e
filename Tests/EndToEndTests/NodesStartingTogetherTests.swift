import Foundation
import Testing
import TestSupport

/// A new cluster whose nodes start at the same moment on an empty shared log: each seeds the demo
/// (its events under derived ids), so the race must record it once, and both must serve it.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct NodesStartingTogetherTests {
    @Test func twoNodesStartedAtOnceOnAnEmptyLogRecordTheDemoOnceAndBothServeIt() async throws {
        let directory = try TemporaryDirectory()
        let alone = try await TestPostgres.newDatabase()
        try await SharedLogNodeTests.savryNode(directory.url.appendingPathComponent("alone"), logURL: alone).stop()
        let oneDemo = try await TestPostgres.head(of: alone)

        let together = try await TestPostgres.newDatabase()
        async let startingA = SharedLogNodeTests.savryNode(directory.url.appendingPathComponent("a"), logURL: together)
        async let startingB = SharedLogNodeTests.savryNode(directory.url.appendingPathComponent("b"), logURL: together)
        let (a, b) = try await (startingA, startingB)
        defer { a.stopWhenLeaving(); b.stopWhenLeaving() }
        let head = try await TestPostgres.head(of: together)
        #expect(oneDemo > 0 && head == oneDemo, "the demo recorded once, as by one node alone (\(oneDemo) events): \(head)")

        let onA = try await SavryEndToEndTests.walk(a, token: try await SavryEndToEndTests.signIn(a, "ana"), limit: 50).compactMap { $0["name"] as? String }
        let shared = try await TestPostgres.head(of: together)
        let caughtUp = try await SharedLogNodeTests.eventually(within: .seconds(30)) {
            ClusterConsistencyTests.foldedHead(of: try await b.get("/health").json) == Int(shared)
        }
        #expect(caughtUp)
        let onB = try await SavryEndToEndTests.walk(b, token: try await SavryEndToEndTests.signIn(b, "ana"), limit: 50).compactMap { $0["name"] as? String }
        #expect(!onA.isEmpty && onA.sorted() == onB.sorted() && Set(onA).count == onA.count, "ana's demo recipes, once each, on both nodes: \(onA) / \(onB)")
    }
}
