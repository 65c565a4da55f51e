import Foundation
import Testing
import TestSupport

/// Issue 14, findings 7 and 8, in Nuvie's error shape: a malformed request and a CONNECT, raw TCP
/// against the live server on 127.0.0.1. The deadlines and connection limits are the engine's, tested
/// on its test product (`HTTPServingTests/ConnectionLimitsTests`).
@Suite(.timeLimit(.minutes(3))) struct ConnectionHardeningTests {
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aMalformedChunkSizeIsA400InTheErrorShapeAndTheConnectionCloses(sentSeparately: Bool) async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("chunky")
            let connection = try await RawConnection.open(port: try #require(client.client.port))
            let head = "POST /movies/1/rate HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            if sentSeparately {
                try await connection.send(head)
                try await Task.sleep(for: .milliseconds(200))
                try await connection.send("zz\r\n")
            } else {
                try await connection.send(head + "zz\r\n")
            }
            let response = try #require(try await connection.response(within: .seconds(10)))
            #expect(response.status == 400)
            #expect(response.errorCode == "INVALID_REQUEST")
            #expect(response.hasErrorShape, "\(response.body)")
            #expect(try await connection.closes(within: .seconds(5)))
            await connection.close()
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func connectIsAnswered405InTheErrorShapeThenClosed() async throws {
        try await withLiveServer { client in
            let connection = try await RawConnection.open(port: try #require(client.client.port))
            try await connection.send("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
            let answer = try await connection.response(within: .seconds(10))
            let sent = try await connection.text()
            let response = try #require(answer, "no whole answer: \(sent)")
            #expect(response.status == 405)
            #expect(response.errorCode == "METHOD_NOT_ALLOWED")
            #expect(response.hasErrorShape, "\(response.body)")
            #expect(try await connection.closes(within: .seconds(5)))
            await connection.close()
        }
    }
}
