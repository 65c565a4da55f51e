import Foundation
import Testing
import TestSupport

/// Issue 14, finding 8, in Nuvie's error shape: a CONNECT, a request line that is not HTTP and a
/// request with two `Host` headers, answered before any route with Nuvie's own body
/// (`EngineRefusal.notAProxy`, `.malformedHTTP`, `.hostHeader`), raw TCP against the live server on
/// 127.0.0.1. The deadlines, connection limits and malformed requests are the engine's, tested on
/// its test product (`HTTPServingTests/ConnectionLimitsTests`, `HostHeaderTests`); Nuvie's answer to
/// each refusal, by `EngineRefusalTests`.
@Suite(.timeLimit(.minutes(3))) struct ConnectionHardeningTests {
    @Test(.timeLimit(.minutes(1)), arguments: [
        ("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 405, "METHOD_NOT_ALLOWED", "not_a_proxy"),
        ("GET /movies/1 HTTP/1.1 extra\r\n\r\n", 400, "INVALID_REQUEST", "malformed"),
        ("GET /movies/1 HTTP/1.1\r\nHost: localhost\r\nHost: elsewhere\r\n\r\n", 400, "INVALID_REQUEST", "several_hosts"),
        ("GET /movies/1 HTTP/1.1\r\nHost: localhost, elsewhere\r\n\r\n", 400, "INVALID_REQUEST", "invalid_host"),
    ])
    func isAnsweredBeforeAnyRouteInTheErrorShapeThenClosed(request: String, status: Int, code: String, reason: String) async throws {
        try await withLiveServer { client in
            let connection = try await RawConnection.open(port: try #require(client.client.port))
            try await connection.send(request)
            let answer = try await connection.response(within: .seconds(10))
            let sent = try await connection.text()
            let response = try #require(answer, "no whole answer: \(sent)")
            #expect(response.status == status)
            #expect(response.errorCode == code)
            #expect(response.hasErrorShape, "\(response.body)")
            #expect(try await connection.closes(within: .seconds(5)))
            await connection.close()
            // Counted, though no route saw it (the registry is the test process's: at least this one).
            let series = "nuvie_http_refused_below_router_total{reason=\"\(reason)\",status=\"\(status)\"} "
            let metrics = try await client.send(.get, "/metrics").text
            let line = metrics.split(separator: "\n").first { $0.hasPrefix(series) }
            #expect(line.flatMap { Int($0.dropFirst(series.count)) }.map { $0 >= 1 } == true, "\(metrics)")
        }
    }
}
