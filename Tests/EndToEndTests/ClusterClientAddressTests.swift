import Foundation
import Testing
import TestSupport

/// `scripts/serve-cluster.sh` as a user runs it, for Chat: nginx names each client to the nodes in
/// `X-Forwarded-For`, which they believe from nginx alone (`CHAT_HTTP_TRUSTED_PROXIES`), so their
/// per-address limits count clients, not nginx.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(5)))
struct ClusterClientAddressTests {
    /// One client's 20 failed logins (each for another email, so no account reaches its own limit)
    /// spend its address's failures, whatever it claims in an `X-Forwarded-For` of its own; a client
    /// at another address is still answered. Were nginx not believed, both would share its bucket.
    @Test func failedLoginsAreCountedByTheClientNginxNames() async throws {
        let directory = try TemporaryDirectory()
        let cluster = try await ServerProcess.cluster("chat", nodes: 2, directory: directory.url)
        defer { cluster.stopWhenLeaving() }
        let port = cluster.port

        for n in 0..<20 {
            let reply = try await Self.login(port: port, email: "nobody-\(n)@example.com", claiming: n.isMultiple(of: 2) ? "10.0.0.\(n)" : nil)
            #expect(reply?.status == 400, "failure \(n + 1) of 20: \(reply?.status ?? 0) \(reply?.body ?? "no answer")")
        }
        for claimed in [nil, "10.0.0.99"] {
            let refused = try await Self.login(port: port, email: "somebody@example.com", claiming: claimed)
            #expect(refused?.status == 429, "the 21st, claiming \(claimed ?? "nothing"): \(refused?.status ?? 0) \(refused?.body ?? "no answer")")
        }
        let other = try await Self.login(port: port, email: "somebody@example.com", from: "127.0.0.2")
        #expect(other?.status == 400, "another client: \(other?.status ?? 0) \(other?.body ?? "no answer")")
        await cluster.stop()
    }

    /// A failed login sent through nginx from `source`, with an `X-Forwarded-For` of its own when
    /// `claiming` an address.
    static func login(port: Int, email: String, from source: String = "127.0.0.1", claiming: String? = nil) async throws -> RawResponse? {
        let connection = try await RawConnection.open(port: port, from: source)
        defer { Task { await connection.close() } }
        let body = #"{"email":"\#(email)","password":"not the password"}"#
        let claim = claiming.map { "X-Forwarded-For: \($0)\r\n" } ?? ""
        try await connection.send(
            "POST /api/login/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\(claim)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
        return try await connection.response(within: .seconds(30))
    }
}
