import NuvieApp
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// An external AI service for the backend to call: it speaks the contract, with what it answers
/// decided by the test.
private enum FakeAIBehaviour: Sendable { case answers, tooSlow, modelNotReady, unknownUser, careless, rulesWithoutDescriptions }

private let sharedToken = "internal-token-internal-token-internal"

private func withFakeAIService(_ behaviour: FakeAIBehaviour, _ body: @Sendable (Int) async throws -> Void) async throws {
    let router = Router()
    router.post("/ai/recommend") { request, context -> Response in
        guard request.headers[HTTPField.Name("X-Internal-Token")!] == sharedToken else { return Response(status: .unauthorized) }
        let buffer = try await request.body.collect(upTo: 1 << 20)
        let json = try JSONSerialization.jsonObject(with: Data(buffer: buffer)) as? [String: Any] ?? [:]
        switch behaviour {
        case .tooSlow:
            try await Task.sleep(for: .seconds(10))
        case .modelNotReady:
            let body = #"{"error":{"code":"MODEL_NOT_READY","message":"warming up","details":{}}}"#
            return Response(status: .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(string: body)))
        case .unknownUser:
            // A service whose data lags the backend's: a new user is not in it yet.
            let body = #"{"error":{"code":"USER_NOT_FOUND","message":"no such user","details":{}}}"#
            return Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: body)))
        case .answers, .careless, .rulesWithoutDescriptions:
            break
        }
        // A careless service ignores the exclusions and asks for a time to live that would overflow.
        let excluded = behaviour == .careless ? [] : json["exclude_movie_ids"] as? [Int] ?? []
        let ttl = behaviour == .careless ? "9223372036854775807" : "60"
        let films = [21, 22, 23, 24].filter { !excluded.contains($0) }.prefix(behaviour == .careless ? 4 : 2)
        // The contract lets a service give `rules` as a reason, and leave descriptions to the backend.
        let factor = behaviour == .rulesWithoutDescriptions
            ? #""primary_reason":"rules","confidence":0.5,"factors":[{"type":"rules","weight":1,"value":1,"payload":{}}]"#
            : #""primary_reason":"similar_users","confidence":0.5,"factors":[{"type":"similar_users","weight":1,"value":7,"payload":{},"description":"From the external model"}]"#
        let items = films.enumerated().map { index, film in
            #"{"movie_id":\#(film),"score":0.5,"rank":\#(index + 1),"explanation":{\#(factor)}}"#
        }
        let body = """
            {"request_id":"\(json["request_id"] as? String ?? "")","user_id":\(json["user_id"] as? Int ?? 0),
             "model":{"name":"external","version":"v9","trained_at":"2025-12-10T00:00:00Z"},"generated_at":"2025-12-13T10:30:05Z",
             "ttl_seconds":\(ttl),"items":[\(items.joined(separator: ","))]}
            """
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
        try await body(try #require(client.port))
    }
}

private func feedDescriptions(_ client: LiveClient, user: String) async throws -> (ids: [Int], descriptions: [String]) {
    let token = try await client.devLogin(user)
    let feed = try await client.send(.get, "/feed/recommendations?limit=50", token: token)
    try #require(feed.status == .ok, "\(feed.text)")
    let items = feed.json["recommendations"] as? [[String: Any]] ?? []
    let descriptions = items.flatMap { ($0["explanation"] as? [String: Any])?["factors"] as? [[String: Any]] ?? [] }.compactMap { $0["description"] as? String }
    return (items.compactMap { $0["movie_id"] as? Int }, descriptions)
}

private func fallbacks(_ client: LiveClient) async throws -> Int {
    let text = try await client.send(.get, "/metrics").text
    return text.split(separator: "\n").filter { $0.hasPrefix("nuvie_ai_fallbacks_total{") && $0.contains("recommend") }
        .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.map { Int($0) }.reduce(0, +)
}

@Suite(.serialized, .timeLimit(.minutes(3))) struct ExternalAIServiceTests {
    @Test func theFeedComesFromTheExternalServiceWhenItAnswers() async throws {
        try await withFakeAIService(.answers) { port in
            try await withTasteServer({ configure(&$0, port: port) }) { client in
                let feed = try await feedDescriptions(client, user: "movielens-3")
                #expect(!feed.ids.isEmpty && Set(feed.ids).isSubset(of: [21, 22, 23, 24]))
                let rated = try ReadModelFacts(client.dataDirectory, userId: 3).ratings.keys
                #expect(Set(feed.ids).isDisjoint(with: rated.map(Int.init)))
                #expect(feed.descriptions.allSatisfy { $0 == "From the external model" })
            }
        }
    }

    @Test func aRuleWithoutADescriptionIsShownInTheBackendsWords() async throws {
        try await withFakeAIService(.rulesWithoutDescriptions) { port in
            try await withTasteServer({ configure(&$0, port: port) }) { client in
                let before = try await fallbacks(client)
                let feed = try await feedDescriptions(client, user: "movielens-3")
                #expect(!feed.ids.isEmpty && Set(feed.ids).isSubset(of: [21, 22, 23, 24]), "the service's answer was thrown away")
                #expect(!feed.descriptions.isEmpty && feed.descriptions.allSatisfy { $0 == "Picked for you" }, "\(feed.descriptions)")
                #expect(try await fallbacks(client) == before)
            }
        }
    }

    @Test func whatAnExternalServiceGetsWrongTheBackendDoesNotPassOn() async throws {
        try await withFakeAIService(.careless) { port in
            try await withTasteServer({ configure(&$0, port: port) }) { client in
                let feed = try await feedDescriptions(client, user: "movielens-3")
                let rated = try ReadModelFacts(client.dataDirectory, userId: 3).ratings.keys.map(Int.init)
                #expect(!feed.ids.isEmpty && Set(feed.ids).isDisjoint(with: rated))
            }
        }
    }

    @Test(arguments: [FakeAIBehaviour.tooSlow, .modelNotReady, .unknownUser])
    fileprivate func theInProcessModelAnswersWhenTheExternalServiceFails(_ behaviour: FakeAIBehaviour) async throws {
        try await withFakeAIService(behaviour) { port in
            try await withTasteServer({ configure(&$0, port: port) }) { client in
                let before = try await fallbacks(client)
                let feed = try await feedDescriptions(client, user: "movielens-3")
                #expect(feed.ids.count > 2)
                #expect(!feed.descriptions.contains("From the external model"))
                #expect(try await fallbacks(client) == before + 1)
            }
        }
    }

    @Test func anUnreachableServiceFallsBackToo() async throws {
        try await withTasteServer({ configuration in
            configuration.internalToken = sharedToken
            configuration.aiServiceURL = URL(string: "http://127.0.0.1:9")
        }) { client in
            let feed = try await feedDescriptions(client, user: "movielens-3")
            #expect(feed.ids.count > 2)
        }
    }

    private func configure(_ configuration: inout NuvieConfiguration, port: Int) {
        configuration.internalToken = sharedToken
        configuration.aiServiceURL = URL(string: "http://127.0.0.1:\(port)")
        // Well above what answering takes on a loaded machine, well below the slow service's 10 s.
        configuration.aiServiceTimeout = .seconds(3)
    }
}
