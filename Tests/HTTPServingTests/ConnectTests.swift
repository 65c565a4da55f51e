import Foundation
import Testing
import TestSupport

/// `CONNECT` is answered 405 in the product's shape (this server is no proxy) in turn with the
/// responses owed to requests pipelined before it, then the connection closes. Raw TCP against the
/// tally product on 127.0.0.1.
@Suite(.timeLimit(.minutes(3))) struct ConnectTests {
    @Test(.timeLimit(.minutes(1))) func aConnectIsRefusedUnderTheClientsRequestId() async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nX-Request-Id: tunnel-1\r\n\r\n")
            let response = try #require(try await connection.response(within: .seconds(10)))
            #expect(response.status == 405 && response.headers["x-request-id"] == "tunnel-1" && response.headers["connection"] == "close")
            #expect(response.body.contains("error"), "\(response.body)")
            #expect(try await connection.closes(within: .seconds(5)))
            await connection.close()
        }
    }

    @Test(.timeLimit(.minutes(1))) func aConnectPipelinedBehindARequestIsAnsweredAfterIt() async throws {
        try await withServedTally { port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\nCONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
            #expect(try await connection.closes(within: .seconds(10)))
            let sent = try await connection.text()
            #expect(sent.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) } == ["200", "405"], "\(sent)")
            await connection.close()
        }
    }
}
