import NuvieAPI
import NuvieApp
import Foundation
import TestSupport
import Hummingbird
import HummingbirdTesting
import NIOCore
import NuvieProjections
import Prometheus
import ProductHosting
import Testing

/// swift-metrics is process-wide: one Prometheus registry for the whole test process, named as the
/// server's are.
let metricsRegistry: PrometheusCollectorRegistry = Bootstrap.metrics(NuvieProduct.self)

/// Runs `body` against the real server on 127.0.0.1 over a fresh data dir holding the tiny MovieLens set.
func withLiveServer(
    _ configure: (inout NuvieConfiguration) -> Void = { _ in },
    _ body: @Sendable (LiveClient) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    var configuration = NuvieConfiguration.testing(dataDirectory: directory.url)
    configuration.demoDataset = replayFixtures.appendingPathComponent("movielens-tiny")
    configuration.metricsRegistry = metricsRegistry
    // Outside demo mode a master key must be configured; any will do for a test's fresh key store.
    configuration.masterKey = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
    configure(&configuration)
    let app = try await buildNuvieApplication(configuration: configuration)
    try await app.test(.live) { client in
        try await body(LiveClient(client: client, dataDirectory: directory.url))
    }
    _ = directory
}

/// A small client over the live test client: JSON in, parsed JSON out.
struct LiveClient: Sendable {
    let client: any TestClientProtocol
    /// The server's data directory, for tests that check responses against the read models themselves.
    let dataDirectory: URL

    struct Reply: @unchecked Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var text: String
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    }

    func send(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, body: String? = nil, headers extra: HTTPFields = [:]) async throws -> Reply {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            Reply(status: response.status, headers: response.headers, text: String(buffer: response.body))
        }
    }

    /// Signs in through the dev provider and returns the access token.
    func devLogin(_ identifier: String) async throws -> String {
        let reply = try await send(.post, "/auth/login", body: #"{"provider":"dev","token":"","user_identifier":"\#(identifier)"}"#)
        try #require(reply.status == .ok, "login failed: \(reply.text)")
        return try #require(reply.json["access_token"] as? String)
    }

    struct Account: Sendable {
        var token: String
        var id: Int
    }

    /// A dev-provider user, registered on first sign-in.
    func account(_ identifier: String) async throws -> Account {
        let reply = try await send(.post, "/auth/login", body: #"{"provider":"dev","user_identifier":"\#(identifier)"}"#)
        try #require(reply.status == .ok, "login failed: \(reply.text)")
        let user = try #require(reply.json["user"] as? [String: Any])
        return Account(token: try #require(reply.json["access_token"] as? String), id: try #require(user["user_id"] as? Int))
    }

    /// `a` asks `b` to be friends and `b` accepts.
    func befriend(_ a: Account, _ b: Account) async throws {
        let sent = try await send(.post, "/friends/requests", token: a.token, body: #"{"user_id":\#(b.id)}"#)
        try #require(sent.status == .created, "request failed: \(sent.text)")
        let accepted = try await send(.post, "/friends/requests/\(a.id)/accept", token: b.token)
        try #require(accepted.status == .ok, "accept failed: \(accepted.text)")
    }

    func headPosition() async throws -> Int {
        try #require(try await send(.get, "/health").json["log_head_position"] as? Int)
    }
}

/// `2024-01-15T10:30:00Z` exactly.
func isContractTimestamp(_ value: Any?) -> Bool {
    guard let text = value as? String else { return false }
    return text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil
}
