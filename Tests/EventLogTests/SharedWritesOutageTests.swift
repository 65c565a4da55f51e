import EventLog
import Foundation
import PersonalData
import PostgresLog
import TestSupport
import Testing

/// A file or key write to a PostgreSQL server that went down before it started never reached it:
/// it says so (`outcomeUnknown` false), as an append does, so the client is told nothing was saved.
/// One whose commit reached the server but whose answer never came back says it may have been saved
/// (`outcomeUnknown` true), and it was.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct SharedWritesOutageTests {
    @Test func fileAndKeyWritesThatNeverReachedTheServerSayNothingWasSaved() async throws {
        let server = try await OwnPostgresServer.start()
        defer { server.stopWhenLeaving() }
        // Written while the server is up, with the time the rest of the suite on two cores may take.
        let setUp = try await PostgresSharedLog(url: server.url, product: "test", operationTimeout: .seconds(60))
        try await setUp.storeFile("before", Data("saved".utf8))
        #expect(try await PostgresSharedKeys(log: setUp).claim([7: Data("wrapped".utf8)]).count == 1)
        // Each write below waits this long for the server that is gone.
        let log = try await PostgresSharedLog(url: server.url, product: "test", operationTimeout: .seconds(3))
        let keys = PostgresSharedKeys(log: log)

        _ = try await TestPostgres.script("stop", server.cluster)
        // The pool's idle connections see their server close them (its shutdown ends every session).
        try await Task.sleep(for: .milliseconds(500))
        let writes: [(String, @Sendable () async throws -> Void)] = [
            ("storeFile", { try await log.storeFile("during", Data("not saved".utf8)) }),
            ("removeFiles", { try await log.removeFiles(prefixed: "before") }),
            ("claim", { _ = try await keys.claim([8: Data("wrapped".utf8)]) }),
            ("destroy", { try await keys.destroy([.init(userId: 7, position: nil)]) }),
        ]
        for (name, write) in writes {
            let refused = await #expect(throws: SharedLogUnreachable.self, "\(name)") { try await write() }
            #expect(refused?.outcomeUnknown == false, "\(name): \(refused.map { "\($0)" } ?? "no error")")
        }
    }

    @Test func fileAndKeyWritesWhoseAnswerNeverCameSayTheyMayHaveBeenSaved() async throws {
        let server = try await OwnPostgresServer.start()
        defer { server.stopWhenLeaving() }
        let direct = try await PostgresSharedLog(url: server.url, product: "test", operationTimeout: .seconds(60))
        let directKeys = PostgresSharedKeys(log: direct)
        try await direct.storeFile("before", Data("saved".utf8))
        var proxied = try #require(URLComponents(string: server.url))
        let proxy = try await ReplyHoldingProxy(to: try #require(proxied.port))
        defer { Task { await proxy.stop() } }
        proxied.port = proxy.port
        // Each write below waits this long for the answer the proxy holds back.
        let log = try await PostgresSharedLog(url: try #require(proxied.string), product: "test", operationTimeout: .seconds(5))
        let keys = PostgresSharedKeys(log: log)
        func key(of userId: Int64) async throws -> SharedKey? {
            try await directKeys.changes(after: 0, limit: 1_000).changes.last { $0.userId == userId }?.key
        }

        let writes: [(name: String, sent: String, write: @Sendable () async throws -> Void, saved: () async throws -> Bool)] = [
            ("storeFile", "INSERT INTO shared_file", { try await log.storeFile("during", Data("unanswered".utf8)) },
             { try await direct.file("during") == Data("unanswered".utf8) }),
            ("removeFiles", "DELETE FROM shared_file", { try await log.removeFiles(prefixed: "before") },
             { try await direct.file("before") == nil }),
            ("claim", "COMMIT", { _ = try await keys.claim([8: Data("wrapped".utf8)]) },
             { try await key(of: 8) == .live(wrapped: Data("wrapped".utf8)) }),
            ("destroy", "COMMIT", { try await keys.destroy([.init(userId: 8, position: nil)]) },
             { try await key(of: 8) == .destroyed(position: nil) }),
        ]
        for (name, sent, write, saved) in writes {
            // A held connection stays leased: a read first leaves an open one for the write, which
            // then spends its deadline waiting for the answer, not connecting on two busy cores.
            _ = try await log.file("before")
            proxy.holdReplies(after: sent)
            let refused = await #expect(throws: SharedLogUnreachable.self, "\(name)") { try await write() }
            #expect(refused?.outcomeUnknown == true, "\(name): \(refused.map { "\($0)" } ?? "no error")")
            #expect(try await saved(), "\(name) did not reach the server")
        }
    }

    /// postgres-nio's pool stops trying after a minute of failed connections (its circuit breaker
    /// trips): a write then was an unmapped error, a 500, where the first minute's were 503s. It is
    /// unreachable like them, and the same write is saved once the server is back.
    @Test(.timeLimit(.minutes(5))) func anOutageLongerThanThePoolsCircuitBreakerIsStillUnreachable() async throws {
        let server = try await OwnPostgresServer.start()
        defer { server.stopWhenLeaving() }
        let log = try await PostgresSharedLog(url: server.url, product: "test", operationTimeout: .seconds(3))
        try await log.storeFile("before", Data("saved".utf8))
        _ = try await TestPostgres.script("stop", server.cluster)
        let stopped = ContinuousClock.now
        var reasons: [String] = []
        // The breaker trips after about a minute; later beside the whole suite on two cores (one run
        // saw none within 75 s).
        while ContinuousClock.now - stopped < .seconds(150), !reasons.contains(where: { $0.contains("circuit breaker") }) {
            let refused = await #expect(throws: SharedLogUnreachable.self) { try await log.storeFile("during", Data("later".utf8)) }
            reasons.append(refused.map { "\($0)" } ?? "")
            try await Task.sleep(for: .seconds(2))
        }
        #expect(reasons.contains { $0.contains("circuit breaker") }, "\(reasons.suffix(3))")
        _ = try await TestPostgres.script("resume", server.cluster)
        var saved = false
        for _ in 0..<60 where !saved {
            saved = (try? await log.storeFile("during", Data("later".utf8))) != nil
            if !saved { try await Task.sleep(for: .seconds(1)) }
        }
        #expect(saved, "no write was saved once the server was back")
    }
}
