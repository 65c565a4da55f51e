#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// A news server polling feeds stops when told: the graceful shutdown ends its wait for the next
/// round of feeds, which held it up to the interval (the probe's took 138 s to exit).
@Suite(.timeLimit(.minutes(3))) struct NewsShutdownTests {
    static let feeds = ["NEWS_FEEDS": "http://127.0.0.1:9/feed.xml", "NEWS_FEED_INTERVAL_SECONDS": "3600"]

    @Test func aServerPollingFeedsStopsPromptlyWhenTold() async throws {
        let directory = try TemporaryDirectory()
        let server = try await Self.node(directory.url.appendingPathComponent("data"), logURL: nil, environment: Self.feeds)
        defer { server.stopWhenLeaving() }
        try await Self.expectStopsPromptly(server)
    }

    /// A fetch under way when the server is told to stop ends without a warning: no feed failed.
    @Test func aFetchUnderWayAtTheShutdownIsNoFailure() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let directory = try TemporaryDirectory()
        let feeds = ["NEWS_FEEDS": "http://127.0.0.1:\(silent.port)/feed.xml", "NEWS_FEED_INTERVAL_SECONDS": "3600"]
        let server = try await Self.node(directory.url.appendingPathComponent("data"), logURL: nil, environment: feeds)
        defer { server.stopWhenLeaving() }
        try await Task.sleep(for: .seconds(1))
        try await Self.expectStopsPromptly(server)
        #expect(!server.everythingSaid().contains("could not fetch a feed"), "\(server.everythingSaid().suffix(2_000))")
    }

    /// A node of a shared log that does not lead the feed poller waits for the lead; the shutdown ends
    /// that wait too (it used to end only once the node led, after the leader had stopped).
    @Test(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"))
    func aNodeWaitingToLeadTheFeedPollerStopsPromptlyWhenTold() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        let environment = SharedLogNodeTests.clusterEnvironment("NEWS").merging(Self.feeds) { $1 }
        let leader = try await Self.node(directory.url.appendingPathComponent("a"), logURL: logURL, environment: environment, logLevel: "notice")
        defer { leader.stopWhenLeaving() }
        try await Self.waitUntil(leader, says: "leading")
        let waiting = try await Self.node(directory.url.appendingPathComponent("b"), logURL: logURL, environment: environment, logLevel: "notice")
        defer { waiting.stopWhenLeaving() }
        try await Self.expectStopsPromptly(waiting)
        #expect(!waiting.everythingSaid().contains("leading"), "the second node led: \(waiting.everythingSaid().suffix(2_000))")
        try await Self.expectStopsPromptly(leader)
    }

    static func node(_ data: URL, logURL: String?, environment: [String: String], logLevel: String = "warning") async throws -> ServerProcess {
        try await ServerProcess.start("news", outputDirectory: data.deletingLastPathComponent(), environment: environment) { port in
            ["serve", "--data-dir", data.path, "--port", "\(port)", "--log-level", logLevel] + (logURL.map { ["--demo", "--log-url", $0] } ?? [])
        }
    }

    static func waitUntil(_ server: ServerProcess, says line: String) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !server.everythingSaid().contains(line) {
            guard ContinuousClock.now < deadline else { Issue.record("never said \(line): \(server.everythingSaid().suffix(2_000))"); return }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    static func expectStopsPromptly(_ server: ServerProcess) async throws {
        server.process.signal(SIGTERM)
        #expect(try await server.waitForExit(timeout: .seconds(30)) != nil, "\(server.everythingSaid().suffix(2_000))")
    }
}

/// A TCP port on 127.0.0.1 whose connections the kernel completes and no one answers: a feed whose
/// fetch is still under way.
private struct SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && listen(descriptor, 8) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard descriptor >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}
