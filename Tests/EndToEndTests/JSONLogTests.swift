import Foundation
import TestSupport
import Testing

/// `--log-format json` (or `<PRODUCT>_LOG_FORMAT=json`): every line a server logs is one JSON object,
/// a request's lines carrying its request id, for a log collector to parse.
@Suite(.timeLimit(.minutes(2))) struct JSONLogTests {
    @Test func aServerLoggingJSONWritesEveryLineAsOneObject() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let server = try await ServerProcess.start("savry", outputDirectory: directory.url, environment: ["SAVRY_LOG_FORMAT": "json", "SAVRY_NOT_A_SETTING": "1"]) { port in
            ["serve", "--data-dir", data.path, "--port", "\(port)", "--demo", "--log-level", "debug"]
        }
        let missing = try await server.get("/no/such/route")
        await server.stop()
        let lines = server.everythingSaid().split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(!lines.isEmpty && objects.count == lines.count, "lines that are not JSON objects: \(lines.filter { !$0.hasPrefix("{") }.prefix(5))")
        #expect(objects.allSatisfy { ["time", "level", "label", "message"].allSatisfy($0.keys.contains) && ($0["time"] as? String)?.hasSuffix("Z") == true })
        let misspelt = objects.filter { ($0["metadata"] as? [String: Any])?["variable"] as? String == "SAVRY_NOT_A_SETTING" }
        #expect(misspelt.count == 1 && misspelt.first?["level"] as? String == "warning", "the setting no one reads is named; SAVRY_LOG_FORMAT is read")
        #expect(!objects.contains { ($0["metadata"] as? [String: Any])?["variable"] as? String == "SAVRY_LOG_FORMAT" })
        let requestId = try #require(missing.headers["x-request-id"])
        #expect(objects.contains { ($0["metadata"] as? [String: Any])?.values.contains { $0 as? String == requestId } == true }, "no line names request \(requestId)")
    }

    /// What stops a server is a JSON line too: a second server on a served directory.
    @Test func whatStopsAServerIsLoggedAsJSON() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let first = try await ServerProcess.start("savry", outputDirectory: directory.url) { port in
            ["serve", "--data-dir", data.path, "--port", "\(port)", "--demo", "--log-level", "warning"]
        }
        defer { first.stopWhenLeaving() }
        let second = try await runProduct("savry", ["serve", "--data-dir", data.path, "--port", "0", "--demo", "--log-format", "json"])
        let lines = second.output.split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(second.status != 0 && !lines.isEmpty && objects.count == lines.count, "\(second.output)")
        let stopped = objects.last { $0["level"] as? String == "critical" }
        #expect(((stopped?["metadata"] as? [String: Any])?["error"] as? String)?.contains("already serves") == true, "\(second.output)")
    }
}
