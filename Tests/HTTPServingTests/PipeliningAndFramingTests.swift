import Foundation
import Testing
import TestSupport

/// Requests pipelined behind a kept-alive HTTP/1.0 one, a request asking to upgrade, and bodies whose
/// framing cannot be trusted (`ConnectionPersistence`). Raw TCP against the tally product on 127.0.0.1.
@Suite(.timeLimit(.minutes(3))) struct PipeliningAndFramingTests {
    /// An answer of no known length to HTTP/1.0 ends with the connection: a request pipelined behind
    /// it and refused below the router is not answered inside that body.
    @Test(.timeLimit(.minutes(1)))
    func nothingFollowsAnAnswerThatTheConnectionsEndDelimits() async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send("GET /users/1/export HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
            #expect(try await connection.closes(within: .seconds(5)))
            let sent = try await connection.text()
            #expect(sent.hasPrefix("HTTP/1.0 200 OK\r\n") && !sent.contains("HTTP/1.1 400") && sent.hasSuffix("}"), "\(sent)")
            await connection.close()
        }
    }

    /// Nor is a request pipelined behind such an answer served at all: its answer could not be sent.
    @Test(.timeLimit(.minutes(1)))
    func aRequestBehindAnAnswerThatTheConnectionsEndDelimitsIsNotServed() async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            let count = #"{"user_id":1,"amount":5}"#
            try await connection.send(
                "GET /users/1/export HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
                    + "POST /tallies/cups HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(count.utf8.count)\r\n\r\n\(count)"
            )
            #expect(try await connection.closes(within: .seconds(5)))
            await connection.close()
            #expect(try await cupsTallyStatus(port: port) == 404, "no tally was counted")
        }
    }

    /// Behind an HTTP/1.0 answer of known length, a pipelined request is served as it came.
    @Test(.timeLimit(.minutes(1)))
    func aRequestBehindAKeptHTTP10AnswerIsServed() async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(try await connection.closes(within: .seconds(5)))
            #expect(ConnectionLimitsTests.statuses(try await connection.text(), version: "1.0") == ["200", "200"])
            #expect(ConnectionLimitsTests.statuses(try await connection.text()) == ["200"])
            await connection.close()
        }
    }

    /// A client that ends its side once it has sent them (a half-close) gets every answer too.
    @Test(.timeLimit(.minutes(1)))
    func requestsBehindAKeptHTTP10RequestAreServedWhenTheClientHalfCloses() async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            try await connection.finishSending()
            #expect(try await connection.closes(within: .seconds(5)))
            let sent = try await connection.text()
            #expect(ConnectionLimitsTests.statuses(sent, version: "1.0") == ["200"] && ConnectionLimitsTests.statuses(sent) == ["200"], "\(sent)")
            await connection.close()
        }
    }

    /// A request asking to upgrade (as `curl --http2` does over plain HTTP) is answered as the
    /// connection's last, which then closes: NIO's decoder would parse nothing after it, and a
    /// request sent next on that connection waited out the idle timeout unanswered.
    @Test(.timeLimit(.minutes(1)))
    func aRequestAskingToUpgradeIsAnsweredAndTheConnectionCloses() async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send(
                "GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n"
                    + "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"
            )
            #expect(try await connection.closes(within: .seconds(5)))
            let sent = try await connection.text()
            #expect(ConnectionLimitsTests.statuses(sent) == ["200"] && sent.contains("Connection: close\r\n") && !sent.contains("101"), "\(sent)")
            await connection.close()
        }
    }

    /// RFC 9112 §6.1: `Transfer-Encoding` on HTTP/1.0 is faulty framing, and a coding other than
    /// `chunked` one this server cannot read; NIO's parser took both, and the tally was counted.
    @Test(.timeLimit(.minutes(1)), arguments: [
        "POST /tallies/cups HTTP/1.0\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        "POST /tallies/cups HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
    ])
    func aBodyWhoseFramingCannotBeTrustedIsRefused(head: String) async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            let count = #"{"user_id":1,"amount":5}"#
            try await connection.send(head + "\(String(count.utf8.count, radix: 16))\r\n\(count)\r\n0\r\n\r\n")
            #expect(try await connection.closes(within: .seconds(5)))
            let sent = try await connection.text()
            #expect(RawResponse(sent)?.status == 400, "\(sent)")
            await connection.close()
            #expect(try await cupsTallyStatus(port: port) == 404, "no tally was counted")
        }
    }
}
