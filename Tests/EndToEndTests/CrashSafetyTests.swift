import ReadModels
import EventLog
import Foundation
import TestSupport
import Logging
import NuvieProjections
import Synchronization
import Testing

/// Starts the real server, drives concurrent ratings, kills it with SIGKILL mid-burst, restarts it,
/// and proves that every acknowledged rating is in the log and that the read models equal a clean
/// rebuild from the log.
@Suite struct CrashSafetyTests {
    struct Acknowledged: Sendable { var token: String; var movieId: Int; var rating: Int; var key: String }

    /// Kills per run: 20 in CI; `NUVIE_CRASH_CYCLES` runs more for a longer soak.
    static let cycles = ProcessInfo.processInfo.environment["NUVIE_CRASH_CYCLES"].flatMap(Int.init) ?? 20

    @Test func killNineDuringABurstOfRatingsLosesNothingAcknowledged() async throws {
        let directory = try TemporaryDirectory()
        let dataDirectory = directory.url.appendingPathComponent("data")
        var server = try await ServerProcess.demo(dataDirectory: dataDirectory)
        var tokens: [String] = []
        for user in 1...3 {
            let login = try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-\#(user)"}"#)
            tokens.append(try #require(login.json["access_token"] as? String))
        }

        var acknowledged: [Acknowledged] = []
        let users = tokens
        for cycle in 0..<Self.cycles {
            let acked = AcknowledgedList()
            let target = server
            let burst = Task {
                await withTaskGroup(of: Void.self) { group in
                    for worker in 0..<6 {
                        group.addTask {
                            var n = 0
                            while !Task.isCancelled {
                                n += 1
                                let sent = Acknowledged(token: users[worker % 3], movieId: 1 + (n + worker) % 5, rating: 1 + (n * 7 + worker) % 5, key: "c\(cycle)-w\(worker)-\(n)")
                                guard let reply = try? await target.post(
                                    "/movies/\(sent.movieId)/rate", #"{"rating":\#(sent.rating)}"#, token: sent.token, headers: ["Idempotency-Key": sent.key]
                                ) else { return }
                                if reply.status == 200 { acked.list.withLock { $0.append(sent) } }
                            }
                        }
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 30...600)))
            server.kill9()
            burst.cancel()
            await burst.value
            acknowledged += acked.list.withLock { $0 }

            server = try await ServerProcess.demo(dataDirectory: dataDirectory)
        }
        #expect(acknowledged.count > 0)

        // Every acknowledged rating is in the log: retrying it with its key records nothing new.
        let head = try #require(try await server.get("/health").json["log_head_position"] as? Int)
        let target = server
        let retried = try await withThrowingTaskGroup(of: UInt.self) { group in
            var statuses: [UInt] = []
            for (index, sent) in acknowledged.enumerated() {
                if index >= 8, let status = try await group.next() { statuses.append(status) }
                group.addTask {
                    try await target.post("/movies/\(sent.movieId)/rate", #"{"rating":\#(sent.rating)}"#, token: sent.token, headers: ["Idempotency-Key": sent.key]).status
                }
            }
            for try await status in group { statuses.append(status) }
            return statuses
        }
        #expect(retried.count == acknowledged.count && retried.allSatisfy { $0 == 200 })
        #expect(try await server.get("/health").json["log_head_position"] as? Int == head)
        server.stop()

        // The read models the server kept through the crashes equal a clean rebuild from the log.
        let log = try EventLog(configuration: .init(directory: dataDirectory.appendingPathComponent("log")))
        defer { log.close() }
        let served = try ReadDatabase(path: dataDirectory.appendingPathComponent("read/read.sqlite").path)
        let rebuilt = try ReadDatabase(path: directory.url.appendingPathComponent("rebuild/read.sqlite").path)
        try ProjectionRunner(log: log, database: served, logger: Logger(label: "test")).catchUp()
        try ProjectionRunner(log: log, database: rebuilt, logger: Logger(label: "test")).catchUp()
        #expect(try served.canonicalDump() == rebuilt.canonicalDump())
    }
}

final class AcknowledgedList: Sendable {
    let list = Mutex<[CrashSafetyTests.Acknowledged]>([])
}
