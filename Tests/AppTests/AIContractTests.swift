import NuvieApp
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

private func internalToken(_ client: LiveClient) throws -> String {
    try String(contentsOf: client.dataDirectory.appendingPathComponent("internal-token"), encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
}

private func ai(_ client: LiveClient, _ path: String, _ body: String, token: String?) async throws -> LiveClient.Reply {
    var headers = HTTPFields()
    if let token { headers[HTTPField.Name("X-Internal-Token")!] = token }
    return try await client.send(.post, path, body: body, headers: headers)
}

@Suite(.timeLimit(.minutes(3))) struct AIContractTests {
    @Test func recommendEchoesTheRequestAndFiltersExclusions() async throws {
        try await withTasteServer { client in
            let token = try internalToken(client)
            let first = try await ai(client, "/ai/recommend", #"{"request_id":"uuid-1234","user_id":1,"limit":3}"#, token: token)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.json["request_id"] as? String == "uuid-1234")
            #expect(first.json["user_id"] as? Int == 1)
            #expect(first.json["ttl_seconds"] as? Int == 900)
            #expect(isContractTimestamp(first.json["generated_at"]))
            let model = try #require(first.json["model"] as? [String: Any])
            #expect(model["name"] as? String == "ibcf" && model["version"] as? String == "v1" && isContractTimestamp(model["trained_at"]))
            let items = try #require(first.json["items"] as? [[String: Any]])
            #expect(items.count == 3)
            #expect(items.compactMap { $0["rank"] as? Int } == [1, 2, 3])
            for item in items { #expect((0...1).contains(item["score"] as? Double ?? -1)) }

            let excluded = items.compactMap { $0["movie_id"] as? Int }
            let second = try await ai(client, "/ai/recommend", #"{"request_id":"r2","user_id":1,"limit":50,"exclude_movie_ids":\#(excluded),"context":{"use_social":false,"locale":"tr-TR","time":"2025-12-13T10:30:00Z"}}"#, token: token)
            let rest = (second.json["items"] as? [[String: Any]] ?? []).compactMap { $0["movie_id"] as? Int }
            #expect(!rest.isEmpty && Set(rest).isDisjoint(with: excluded))
            let factors = (second.json["items"] as? [[String: Any]] ?? []).flatMap { ($0["explanation"] as? [String: Any])?["factors"] as? [[String: Any]] ?? [] }
            #expect(!factors.contains { $0["type"] as? String == "friend_activity" })
        }
    }

    @Test func seedsLimitTheBecauseYouRatedReasons() async throws {
        try await withTasteServer { client in
            let reply = try await ai(client, "/ai/recommend", #"{"request_id":"s","user_id":1,"limit":10,"context":{"seed_movie_ids":[999]}}"#, token: try internalToken(client))
            let factors = (reply.json["items"] as? [[String: Any]] ?? []).flatMap { ($0["explanation"] as? [String: Any])?["factors"] as? [[String: Any]] ?? [] }
            #expect(reply.status == .ok)
            #expect(!factors.contains { $0["type"] as? String == "because_you_rated" })
        }
    }

    @Test func explainAnswersForOneFilm() async throws {
        try await withTasteServer { client in
            let reply = try await ai(client, "/ai/explain", #"{"request_id":"uuid-999","user_id":1,"movie_id":5,"context":{"use_social":true}}"#, token: try internalToken(client))
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.json["request_id"] as? String == "uuid-999")
            #expect(reply.json["movie_id"] as? Int == 5)
            #expect((0...100).contains(reply.json["ai_score"] as? Int ?? -1))
            let signals = try #require(reply.json["social_signals"] as? [String: Any])
            #expect(signals["friend_ratings_count"] is Int && signals["friend_ratings_avg"] is NSNumber && signals["friend_watch_count"] is Int)
        }
    }

    @Test(arguments: [
        ("/ai/recommend", #"{"user_id":1}"#, "INVALID_REQUEST"),
        ("/ai/recommend", #"{"request_id":"x","user_id":1,"limit":51}"#, "INVALID_REQUEST"),
        ("/ai/recommend", #"{"request_id":"x","user_id":1,"limit":0}"#, "INVALID_REQUEST"),
        ("/ai/recommend", #"{"request_id":"x","user_id":1,"offset":-1}"#, "INVALID_REQUEST"),
        ("/ai/recommend", #"{"request_id":"x","user_id":"one"}"#, "INVALID_REQUEST"),
        ("/ai/recommend", #"{"request_id":"x","user_id":1,"exclude_movie_ids":"5"}"#, "INVALID_REQUEST"),
        ("/ai/recommend", #"{"request_id":"x","user_id":1,"context":{"time":"yesterday"}}"#, "INVALID_REQUEST"),
        ("/ai/recommend", #"not json"#, "INVALID_REQUEST"),
        ("/ai/recommend", #"{"request_id":"x","user_id":4242}"#, "USER_NOT_FOUND"),
        ("/ai/explain", #"{"request_id":"x","user_id":1}"#, "INVALID_REQUEST"),
        ("/ai/explain", #"{"request_id":"x","user_id":4242,"movie_id":1}"#, "USER_NOT_FOUND"),
        ("/ai/explain", #"{"request_id":"x","user_id":1,"movie_id":4242}"#, "MOVIE_NOT_FOUND"),
    ])
    func badRequestsGetTheContractsErrors(path: String, body: String, code: String) async throws {
        try await withTasteServer { client in
            let reply = try await ai(client, path, body, token: try internalToken(client))
            #expect(reply.errorCode == code, "\(reply.text)")
            #expect((reply.json["error"] as? [String: Any])?["details"] is [String: Any])
        }
    }

    @Test func theInternalTokenIsRequiredAndAUserTokenIsNotEnough() async throws {
        try await withTasteServer { client in
            let body = #"{"request_id":"x","user_id":1}"#
            #expect(try await ai(client, "/ai/recommend", body, token: nil).status == .unauthorized)
            #expect(try await ai(client, "/ai/recommend", body, token: "wrong-token-wrong-token-wrong-token").status == .unauthorized)
            let user = try await client.devLogin("movielens-1")
            #expect(try await client.send(.post, "/ai/recommend", token: user, body: body).status == .unauthorized)
        }
    }
}
