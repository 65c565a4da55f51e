import Foundation
import Testing

/// Issue 14, findings 7 and 8: what the server does with malformed, slow, idle or surplus connections.
/// Raw TCP against the live server on 127.0.0.1, with timeouts of a second or so.
@Suite struct ConnectionHardeningTests {
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
}
