import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// News through two nodes of one PostgreSQL log.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(5)))
struct NewsNodesTests {
    /// A feed's next page asked of another node than its first (the first's failed, or was taken
    /// out), which has not yet folded what that page was ranked through: it waits to, and answers
    /// the page, rather than refusing the cursor 400.
    @Test func aFeedsNextPageIsServedByANodeThatWasBehind() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        let environment = SharedLogNodeTests.clusterEnvironment("NEWS")
        let a = try await NewsShutdownTests.node(directory.url.appendingPathComponent("a"), logURL: logURL, environment: environment)
        let b = try await NewsShutdownTests.node(directory.url.appendingPathComponent("b"), logURL: logURL, environment: environment)
        defer { b.process.signal(SIGCONT); a.stopWhenLeaving(); b.stopWhenLeaving() }
        let reader = ["X-User-ID": "roaming-investor"]
        b.process.signal(SIGSTOP)
        let saved = try await a.put("/v1/preferences", #"{"focus_profile":"broad","holdings":["AMD"]}"#, headers: reader)
        #expect(saved.status == 200, "\(saved.status) \(saved.text)")
        let first = try await a.get("/v1/feed?limit=2", headers: reader)
        let cursor = try #require(first.json["next_cursor"] as? String, "\(first.status) \(first.text)")
        b.process.signal(SIGCONT)
        let next = try await b.get("/v1/feed?limit=2&cursor=\(cursor)", headers: reader)
        #expect(next.status == 200, "\(next.status) \(next.text)")
        let again = try await a.get("/v1/feed?limit=2&cursor=\(cursor)", headers: reader)
        #expect(try SharedLogNodeTests.canonical(next.json) == SharedLogNodeTests.canonical(again.json), "the same page on either node")
    }
}
