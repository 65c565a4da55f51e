import ReadModels
import EventLog
import Foundation
import Logging
import NuvieProjections
import TestSupport
import Testing

/// The real server with its data directory on a small tmpfs that a filler file then fills.
@Suite(.serialized) struct DiskFullTests {
    static let skipped: Comment = "mounting a tmpfs needs root: disk-full end-to-end tests skipped"

    @Test(.enabled(if: TmpfsMount.isPermitted, skipped), .timeLimit(.minutes(8)))
    func aFullDiskAnswers503StorageFullAndWritesResumeWhenSpaceReturns() async throws {
        let directory = try TemporaryDirectory()
        let disk = try TmpfsMount(at: directory.url.appendingPathComponent("disk"), megabytes: 32)
        defer { disk.unmount() }
        let dataDirectory = disk.url.appendingPathComponent("data")
        let server = try await ServerProcess.demo(
            dataDirectory: dataDirectory, outputDirectory: directory.url, environment: ["NUVIE_READ_YOUR_WRITES_TIMEOUT_MS": "300"]
        )
        defer { server.stopWhenLeaving() }
        let login = try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-1"}"#)
        let token = try #require(login.json["access_token"] as? String)

        var acknowledged: [Int] = []
        var attempt = 0
        /// Rates one film; a 200, or a 503 `SERVICE_UNAVAILABLE` (recorded, not yet visible), is acknowledged.
        func rate() async throws -> ServerProcess.Reply {
            attempt += 1
            let reply = try await server.post(
                "/movies/\(1 + attempt % 5)/rate", #"{"rating":\#(1 + attempt % 5)}"#, token: token, headers: ["Idempotency-Key": "k-\(attempt)"]
            )
            if reply.status == 200 || Self.code(reply) == "SERVICE_UNAVAILABLE" { acknowledged.append(attempt) }
            return reply
        }
        for _ in 0..<5 { #expect(try await rate().status == 200) }

        let filler = disk.url.appendingPathComponent("filler")
        try disk.fill(with: filler)
        var refusal: ServerProcess.Reply?
        while refusal == nil, attempt < 2_000 {
            let reply = try await rate()
            if Self.code(reply) == "STORAGE_FULL" { refusal = reply }
        }
        let full = try #require(refusal, "no write was refused on a full disk")
        #expect(full.status == 503)
        #expect(full.headers["retry-after"] == "30")
        let error = try #require(full.json["error"] as? [String: Any])
        #expect((error["message"] as? String)?.isEmpty == false)
        #expect((error["details"] as? [String: Any])?.isEmpty == true)

        // A new user's first sign-in writes their data key to the key store first: refused the same way.
        let newcomer = try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"newcomer"}"#)
        #expect(newcomer.status == 503 && Self.code(newcomer) == "STORAGE_FULL", "\(newcomer.json)")

        let health = try await server.get("/health")
        #expect(health.status == 503)
        #expect(health.json["status"] as? String == "degraded")
        let stores = (health.json["storage_full"] as? [[String: Any]] ?? []).compactMap { $0["store"] as? String }
        #expect(stores.contains { ["event_log", "log_index"].contains($0) }, "storage_full: \(stores)")
        let said = server.everythingSaid()
        #expect(said.contains("no space left on device"))
        #expect(said.contains(dataDirectory.appendingPathComponent("log").path))

        try FileManager.default.removeItem(at: filler)
        let deadline = ContinuousClock.now + .seconds(60)
        var resumed = false
        while !resumed, ContinuousClock.now < deadline {
            resumed = try await rate().status == 200
            if !resumed { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(resumed, "writes did not resume once space was freed")
        #expect(try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"newcomer"}"#).status == 200)
        var healthy = try await server.get("/health")
        while healthy.json["status"] as? String != "ok", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            healthy = try await server.get("/health")
        }
        #expect(healthy.status == 200)
        #expect(healthy.json["status"] as? String == "ok")
        #expect((healthy.json["storage_full"] as? [Any])?.isEmpty == true)

        // Every acknowledged rating is in the log: retrying it with its key records nothing new.
        let head = try #require(healthy.json["log_head_position"] as? Int)
        for n in acknowledged {
            let retried = try await server.post(
                "/movies/\(1 + n % 5)/rate", #"{"rating":\#(1 + n % 5)}"#, token: token, headers: ["Idempotency-Key": "k-\(n)"]
            )
            #expect(retried.status == 200)
        }
        #expect(try await server.get("/health").json["log_head_position"] as? Int == head)
        await server.stop()
        try Self.expectReadModelsEqualARebuild(dataDirectory, scratch: directory.url.appendingPathComponent("rebuild"))
    }

    @Test(.enabled(if: TmpfsMount.isPermitted, skipped), .timeLimit(.minutes(5)))
    func startingOnAFullDiskExitsWithAMessageNamingTheCause() async throws {
        let directory = try TemporaryDirectory()
        let disk = try TmpfsMount(at: directory.url.appendingPathComponent("disk"), megabytes: 32)
        defer { disk.unmount() }
        let dataDirectory = disk.url.appendingPathComponent("data")
        try await ServerProcess.demo(dataDirectory: dataDirectory, outputDirectory: directory.url).stop()

        let filler = disk.url.appendingPathComponent("filler")
        try disk.fill(with: filler)
        let refused = try ServerProcess.launch(outputDirectory: directory.url) { ServerProcess.demoArguments(dataDirectory: dataDirectory, port: $0) }
        let status = try await refused.waitForExit(timeout: .seconds(60))
        if status == nil { await refused.kill9() }
        #expect(status != nil && status != 0, "the server did not exit on a full disk")
        let said = refused.everythingSaid()
        #expect(said.contains("no space left on device"), "it said: \(said.suffix(2_000))")
        #expect(said.contains(dataDirectory.path))

        try FileManager.default.removeItem(at: filler)
        try await ServerProcess.demo(dataDirectory: dataDirectory, outputDirectory: directory.url).stop()
    }

    static func code(_ reply: ServerProcess.Reply) -> String? {
        (reply.json["error"] as? [String: Any])?["code"] as? String
    }

    /// The read models the server kept equal a clean rebuild from its log.
    static func expectReadModelsEqualARebuild(_ dataDirectory: URL, scratch: URL) throws {
        let log = try EventLog(configuration: .init(directory: dataDirectory.appendingPathComponent("log")))
        defer { log.close() }
        let served = try ReadDatabase(path: ReadModelFiles(directory: dataDirectory.appendingPathComponent("read")).currentPath)
        defer { try? served.close() }
        let rebuilt = try ReadDatabase(path: scratch.appendingPathComponent("read.sqlite").path)
        defer { try? rebuilt.close() }
        let keys = try demoKeyStore(of: dataDirectory)
        try ProjectionRunner(log: log, personalData: keys, database: served, logger: Logger(label: "test")).catchUp()
        try ProjectionRunner(log: log, personalData: keys, database: rebuilt, logger: Logger(label: "test")).catchUp()
        #expect(try served.canonicalDump() == rebuilt.canonicalDump())
    }
}
