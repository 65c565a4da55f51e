import Commands
import EventLog
import Foundation
import TestSupport
import Testing

/// A demo import killed part-way is finished by the next start, before it serves anything.
@Suite struct DemoImportTests {
    @Test(.timeLimit(.minutes(10)))
    func aRestartAfterADemoImportKilledPartWayFinishesItBeforeServing() async throws {
        let directory = try TemporaryDirectory()
        let dataDirectory = directory.url.appendingPathComponent("data")
        let dataset = repositoryRoot.appendingPathComponent("demo/ml-latest-small")
        let arguments = { (port: Int) in ServerProcess.demoArguments(dataDirectory: dataDirectory, port: port, dataset: dataset, logLevel: "info") }

        let importing = try ServerProcess.launch(outputDirectory: directory.url, arguments: arguments)
        let deadline = ContinuousClock.now + .seconds(120)
        // A progress line (" importing" ends it) is written after each batch the log acknowledged.
        while !importing.everythingSaid().contains(" importing\n"), importing.process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        importing.kill9()
        let before = importing.everythingSaid()
        try #require(before.contains(" importing\n") && !before.contains("demo imported"), "the kill did not land inside the import:\n\(before.suffix(2_000))")
        let partial = try Self.logHead(dataDirectory)
        #expect(partial > 0)

        let server = try await ServerProcess.start(outputDirectory: directory.url, timeout: .seconds(400), arguments: arguments)
        defer { server.stop() }
        #expect(server.everythingSaid().contains("the demo import stopped part-way last time; resuming it"))
        let health = try await server.get("/health")
        let complete = try await Self.completeImportHead(of: dataset, in: directory.url.appendingPathComponent("reference"))
        #expect(partial < complete)
        #expect(health.json["log_head_position"] as? Int == Int(complete))
        #expect(health.json["status"] as? String == "ok")
        let model = try #require(health.json["recommendation_model"] as? [String: Any])
        #expect((model["films"] as? Int ?? 0) > 1_000)
        #expect(try String(contentsOf: dataDirectory.appendingPathComponent("demo-import"), encoding: .utf8) == "finished\n")
    }

    static func logHead(_ dataDirectory: URL) throws -> UInt64 {
        let log = try EventLog(configuration: .init(directory: dataDirectory.appendingPathComponent("log")))
        defer { log.close() }
        return log.headPosition
    }

    /// The log head of the same dataset imported whole into an empty log.
    static func completeImportHead(of dataset: URL, in directory: URL) async throws -> UInt64 {
        let log = try EventLog(configuration: .init(directory: directory, initialMapSize: 256 << 20))
        defer { log.close() }
        return try await MovieLensImporter(log: log).importDirectory(dataset).headPosition
    }
}
