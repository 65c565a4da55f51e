import Foundation
import Testing
import TestSupport

/// A request with more than one `Host`, or one that is not a host and port, is answered 400 (RFC 9112
/// §3.2) in the product's shape and the connection closes, with nothing of it done; one without `Host` is served, since nothing reads
/// it. Raw TCP against the tally product on 127.0.0.1.
@Suite(.timeLimit(.minutes(3))) struct HostHeaderTests {
    static let refusal = #"{"error":"A request must carry at most one Host header, holding a host and port; the connection is closed"}"#
    static let count = #"{"user_id":1,"amount":5}"#

    @Test(.timeLimit(.minutes(1)), arguments: [
        "Host: localhost\r\nHost: elsewhere\r\n", "Host: localhost\r\nHost: localhost\r\n", "Host: a, b\r\n", "Host: localhost/admin\r\n",
        "Host: user@localhost\r\n", "Host: localhost:80a\r\n", "Host: [::1\r\n",
    ])
    func aRequestWithTwoHostsOrAnInvalidOneIsRefusedAndChangesNothing(hosts: String) async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send(
                "POST /tallies/cups HTTP/1.1\r\n\(hosts)Content-Type: application/json\r\nContent-Length: \(Self.count.utf8.count)\r\n\r\n\(Self.count)"
            )
            let response = try #require(try await connection.response(within: .seconds(10)))
            #expect(response.status == 400 && response.body == Self.refusal, "\(response.body)")
            #expect(response.headers["connection"] == "close" && response.headers["x-request-id"]?.isEmpty == false)
            #expect(try await connection.closes(within: .seconds(5)))
            await connection.close()
            #expect(try await cupsTallyStatus(port: port) == 404, "no tally was counted")
        }
    }

    /// Answered after the response owed to the request pipelined before it; nothing after it is read,
    /// a CONNECT included.
    @Test(.timeLimit(.minutes(1)), arguments: ["GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"])
    func aPipelinedRequestWithTwoHostsIsAnsweredInTurnThenTheConnectionCloses(after: String) async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            let health = "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"
            try await connection.send(health + "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n" + after)
            #expect(try await connection.closes(within: .seconds(10)))
            let sent = try await connection.text()
            #expect(sent.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) } == ["200", "400"], "\(sent)")
            #expect(sent.hasSuffix(Self.refusal), "\(sent)")
            await connection.close()
        }
    }

    /// Behind a request that ends the connection nothing is answered, this refusal included: it would
    /// follow a response that said it was the last, or run on into an HTTP/1.0 body that the close ends.
    @Test(.timeLimit(.minutes(1)), arguments: [
        ("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", "1.1"), ("GET /health HTTP/1.0\r\n\r\n", "1.0"),
    ])
    func nothingIsAnsweredAfterTheConnectionsLastRequest(last: String, version: String) async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send(last + "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
            #expect(try await connection.closes(within: .seconds(10)))
            let sent = try await connection.text()
            #expect(sent.hasPrefix("HTTP/\(version) 200") && !sent.contains(" 400 "), "\(sent)")
            await connection.close()
        }
    }

    /// Under the client's own `X-Request-Id`, as a routed answer would be.
    @Test(.timeLimit(.minutes(1))) func aRefusalCarriesTheClientsRequestId() async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send("GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\nX-Request-Id: trace-7f3a\r\n\r\n")
            let response = try #require(try await connection.response(within: .seconds(10)))
            #expect(response.status == 400 && response.headers["x-request-id"] == "trace-7f3a")
            await connection.close()
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n", "GET /health HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: api.example.com\r\nConnection: close\r\n\r\n",
    ])
    func aHostAndPortIsServed(request: String) async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send(request)
            #expect(try await connection.response(within: .seconds(10))?.status == 200)
            await connection.close()
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [
        "GET /health HTTP/1.0\r\n\r\n", "GET /health HTTP/1.1\r\nConnection: close\r\n\r\n", "GET /health HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n",
    ])
    func aRequestWithoutHostOrWithAnEmptyOneIsServed(request: String) async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send(request)
            #expect(try await connection.response(within: .seconds(10))?.status == 200)
            await connection.close()
        }
    }
}
