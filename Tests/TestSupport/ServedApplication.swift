import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore

/// GET `uri` (or another method) of a served application on a connection of its own.
public func get(_ uri: String, port: Int, method: HTTPRequest.Method = .get) async throws -> TestClient.Response {
    let client = TestClient(host: "127.0.0.1", port: port, configuration: .init())
    client.connect()
    do {
        let response = try await client.execute(.init(uri, method: method, authority: "127.0.0.1"))
        try await client.shutdown()
        return response
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// What every product's served application must answer, whatever its contract: `/health` 200 and
/// `ok`, `/metrics` in Prometheus text, its `/openapi.json`, an unknown route 404 in the product's
/// error shape (`errorKeys`, its top-level JSON keys), each with an `X-Request-Id`; a body too large
/// for any route, announced with `Expect: 100-continue`, 413 in that shape before it is sent; a
/// request with two `Host` headers, 400 in that shape.
public enum ServedApplicationCheck {
    public static func problems(port: Int, errorKeys: Set<String>) async throws -> [String] {
        var problems: [String] = []
        for (uri, status) in [("/health", HTTPResponse.Status.ok), ("/metrics", .ok), ("/openapi.json", .ok), ("/no/such/route", .notFound)] {
            let response = try await get(uri, port: port)
            if response.status != status { problems.append("\(uri): \(response.status.code), not \(status.code)") }
            if !response.headers.contains(where: { $0.name.canonicalName == "x-request-id" }) { problems.append("\(uri): no X-Request-Id") }
            let json = response.body.flatMap { try? JSONSerialization.jsonObject(with: Data(buffer: $0)) as? [String: Any] }
            switch uri {
            case "/health" where json?["status"] as? String != "ok": problems.append("/health: status \(json?["status"] ?? "none")")
            case "/no/such/route" where json.map { Set($0.keys) } != errorKeys: problems.append("404 body keys \(json.map { $0.keys.sorted() } ?? []), not \(errorKeys.sorted())")
            default: break
            }
        }
        // A served path asked with a method it does not serve: 405 naming those it does, in the error shape.
        for method in [HTTPRequest.Method.post, .options, .trace] {
            let refused = try await get("/health", port: port, method: method)
            let body = refused.body.flatMap { try? JSONSerialization.jsonObject(with: Data(buffer: $0)) as? [String: Any] }
            if refused.status != .methodNotAllowed || refused.headers[.allow] != "GET" || body.map({ Set($0.keys) }) != errorKeys {
                problems.append("\(method) /health: \(refused.status.code), Allow \(refused.headers[.allow] ?? "none"), body keys \(body.map { $0.keys.sorted() } ?? [])")
            }
        }
        // A body past what any route reads, announced with `Expect: 100-continue`: refused before it is
        // sent; and a request with two `Host` headers.
        for (label, request, status) in [
            ("a 1 GiB body announced", "POST /health HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: \(1 << 30)\r\n\r\n", 413),
            ("two Hosts", "GET /health HTTP/1.1\r\nHost: localhost\r\nHost: elsewhere\r\n\r\n", 400),
        ] {
            let answer = try await rawResponse(request, port: port)
            let keys = answer.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any] }.map { Set($0.keys) }
            if answer?.status != status || keys != errorKeys {
                problems.append("\(label): \(answer?.status ?? 0), body keys \(keys?.sorted() ?? [])")
            }
        }
        return problems
    }

    private static func rawResponse(_ request: String, port: Int) async throws -> RawResponse? {
        let connection = try await RawConnection.open(port: port)
        do {
            try await connection.send(request)
            let response = try await connection.response(within: .seconds(10))
            await connection.close()
            return response
        } catch {
            await connection.close()
            throw error
        }
    }
}

public enum PrometheusText {
    /// The metrics in `text` whose `# TYPE` line has no `# HELP` line for the same name before it.
    public static func undescribed(_ text: String) -> [String] {
        var described = Set<Substring>(), missing: [String] = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count >= 3, words[0] == "#" else { continue }
            if words[1] == "HELP" { described.insert(words[2]) }
            if words[1] == "TYPE", !described.contains(words[2]) { missing.append(String(words[2])) }
        }
        return missing
    }
}
