import Foundation
import TestSupport
import Testing

/// A news server polling feeds stops when told: the graceful shutdown ends its wait for the next
/// round of feeds, which held it up to the interval (the probe's took 138 s to exit).
@Suite(.timeLimit(.minutes(2))) struct NewsShutdownTests {
    @Test func aServerPollingFeedsStopsPromptlyWhenTold() async throws {
        let directory = try TemporaryDirectory()
        let environment = ["NEWS_FEEDS": "http://127.0.0.1:9/feed.xml", "NEWS_FEED_INTERVAL_SECONDS": "3600"]
        let server = try await ServerProcess.start("news", outputDirectory: directory.url, environment: environment) { port in
            ["serve", "--data-dir", directory.url.appendingPathComponent("data").path, "--port", "\(port)", "--log-level", "warning"]
        }
        defer { server.stopWhenLeaving() }
        server.process.signal(SIGTERM)
        #expect(try await server.waitForExit(timeout: .seconds(30)) != nil, "\(server.everythingSaid().suffix(2_000))")
    }
}
