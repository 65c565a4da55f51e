import NuvieCommands
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
        // The demo's films with 20,000 of its ratings: six import batches, a fifth of the demo's work.
        let dataset = try movieLensSubset(ratings: 20_000, in: directory.url)
        let arguments = { (port: Int) in ServerProcess.demoArguments(dataDirectory: dataDirectory, port: port, dataset: dataset, logLevel: "info") }

        // The kill must land between the first batch and the last: a watcher on a thread of its own
        // (not the test pool, which other tests keep busy) kills at the first progress line. When
        // the machine is so loaded that the import still finishes first, the scenario starts over.
        var before = ""
        for _ in 1...3 {
            try? FileManager.default.removeItem(at: dataDirectory)
            let importing = try ServerProcess.launch(outputDirectory: directory.url, arguments: arguments)
            // The server logs " importing" after each batch the log acknowledged.
            await importing.kill9(whenOutputContains: " importing\n")
            before = importing.everythingSaid()
            if !before.contains("demo imported") { break }
        }
        try #require(before.contains(" importing\n") && !before.contains("demo imported"), "the kill did not land inside the import:\n\(before.suffix(2_000))")
        let partial = try Self.logHead(dataDirectory)
        #expect(partial > 0)

        let server = try await ServerProcess.start(outputDirectory: directory.url, timeout: .seconds(400), arguments: arguments)
        defer { server.stopWhenLeaving() }
        #expect(server.everythingSaid().contains("the demo import stopped part-way last time; resuming it"))
        let health = try await server.get("/health")
        let complete = try await Self.completeImportHead(of: dataset, in: directory.url.appendingPathComponent("reference"))
        #expect(partial < complete)
        #expect(health.json["log_head_position"] as? Int == Int(complete))
        #expect(health.json["status"] as? String == "ok")
        let model = try #require(health.json["recommendation_model"] as? [String: Any])
        #expect((model["films"] as? Int ?? 0) > 100)
        #expect(try String(contentsOf: dataDirectory.appendingPathComponent("demo-import"), encoding: .utf8) == "finished\n")
    }

    static func logHead(_ dataDirectory: URL) throws -> UInt64 {
        let log = try EventLog(configuration: .init(directory: dataDirectory.appendingPathComponent("log")))
        defer { log.close() }
        return log.headPosition
    }

    /// The log head of the same dataset imported whole into an empty log.
    static func completeImportHead(of dataset: URL, in directory: URL) async throws -> UInt64 {
        let log = try EventLog(configuration: .init(directory: directory.appendingPathComponent("log"), initialMapSize: 64 << 20))
        defer { log.close() }
        let scratch = try TemporaryDirectory()
        let keys = try testKeyStore(in: scratch)
        return try await MovieLensImporter(store: NuvieStore(log: log, personalData: keys)).importDirectory(dataset).headPosition
    }

    /// A bad setting stops the server before the demo import and the first training, not after.
    @Test(.timeLimit(.minutes(2)))
    func aTooShortJWTSecretStopsTheServerBeforeTheDemoImport() async throws {
        let directory = try TemporaryDirectory()
        let dataDirectory = directory.url.appendingPathComponent("data")
        let refused = try ServerProcess.launch(outputDirectory: directory.url, environment: ["NUVIE_JWT_SECRET": "too-short"]) {
            ServerProcess.demoArguments(dataDirectory: dataDirectory, port: $0)
        }
        let status = try await refused.waitForExit(timeout: .seconds(60))
        if status == nil { await refused.kill9() }
        #expect(status != nil && status != 0, "the server did not exit")
        #expect(refused.everythingSaid().contains("NUVIE_JWT_SECRET"), "\(refused.everythingSaid().suffix(1_000))")
        let log = try EventLog(configuration: .init(directory: dataDirectory.appendingPathComponent("log"), readOnly: true))
        defer { log.close() }
        #expect(log.headPosition == 0, "the demo was imported before the setting was checked")
    }
}
