import Foundation
import HTTPTypes
import Testing

@Suite(.timeLimit(.minutes(3))) struct AdminTests {
    static let adminToken = "operator-token-operator-token-operator"
    var admin: HTTPFields { [HTTPField.Name("X-Admin-Token")!: Self.adminToken] }

    @Test func theAuditListsWhatAUserDidAndWhatConcernsThem() async throws {
        try await withLiveServer({ $0.adminToken = Self.adminToken }) { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob")
            _ = try await client.send(.post, "/movies/1/rate", token: alice.token, body: #"{"rating":4}"#)
            _ = try await client.send(.patch, "/users/me", token: alice.token, body: #"{"bio":"hi"}"#)
            _ = try await client.send(.post, "/friends/requests", token: bob.token, body: #"{"user_id":\#(alice.id)}"#)

            let audit = try await client.send(.get, "/admin/users/\(alice.id)/audit", headers: admin).json
            let events = try #require(audit["events"] as? [[String: Any]])
            #expect(events.map { $0["type"] as? String } == ["identity-claimed", "user-registered", "session-started", "movie-rated", "profile-updated", "friend-requested"])
            #expect(events.map { $0["role"] as? String } == ["actor", "actor", "actor", "actor", "actor", "subject"])
            let request = try #require(events.last)
            #expect((request["payload"] as? [String: Any])?["fromUserId"] as? Int == bob.id && request["actor_user_id"] as? Int == bob.id)
            #expect(Set(request.keys) == ["position", "event_id", "type", "schema_version", "stream", "recorded_at", "actor_user_id", "role", "payload"])
            #expect(isContractTimestamp(request["recorded_at"]) && audit["total_count"] as? Int == 6)
            let positions = events.compactMap { $0["position"] as? Int }
            #expect(positions == positions.sorted())

            #expect(try await client.send(.get, "/admin/users/\(alice.id)/audit?from=2999-01-01", headers: admin).json["total_count"] as? Int == 0)
            #expect(try await client.send(.get, "/admin/users/\(alice.id)/audit?to=2000-01-01T00:00:00Z", headers: admin).json["total_count"] as? Int == 0)
            for time in ["yesterday", "2025-02-30", "2025-01-01T24:00:00Z", "2025-1-01"] {
                #expect(try await client.send(.get, "/admin/users/\(alice.id)/audit?from=\(time)", headers: admin).errorCode == "VALIDATION_ERROR", "\(time)")
            }
        }
    }

    @Test func aStreamsHistoryListsEveryChangeToOneEntity() async throws {
        try await withLiveServer({ $0.adminToken = Self.adminToken }) { client in
            let alice = try await client.account("alice")
            _ = try await client.send(.post, "/movies/1/rate", token: alice.token, body: #"{"rating":4}"#)
            _ = try await client.send(.post, "/movies/1/rate", token: alice.token, body: #"{"rating":2}"#)
            let history = try await client.send(.get, "/admin/streams/rating-\(alice.id)-1/events", headers: admin).json
            let events = try #require(history["events"] as? [[String: Any]])
            #expect(events.map { ($0["payload"] as? [String: Any])?["rating"] as? Double } == [4, 2])
            #expect(events.allSatisfy { $0["stream"] as? String == "rating-\(alice.id)-1" } && history["next_from"] is NSNull)
            let none = try await client.send(.get, "/admin/streams/no-such-stream/events", headers: admin).json
            #expect((none["events"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func theLogBrowserPagesThroughTheLog() async throws {
        try await withLiveServer({ $0.adminToken = Self.adminToken }) { client in
            let head = try await client.headPosition()
            let first = try await client.send(.get, "/admin/events?limit=5", headers: admin).json
            #expect((first["events"] as? [[String: Any]])?.compactMap { $0["position"] as? Int } == [1, 2, 3, 4, 5])
            #expect(first["next_from"] as? Int == 6 && first["head_position"] as? Int == head)
            let last = try await client.send(.get, "/admin/events?from=\(head)&limit=5", headers: admin).json
            #expect((last["events"] as? [Any])?.count == 1 && last["next_from"] is NSNull)
            for query in ["limit=0", "limit=1001", "from=0", "from=x", "limit=%2B5"] {
                #expect(try await client.send(.get, "/admin/events?\(query)", headers: admin).errorCode == "VALIDATION_ERROR", "\(query)")
            }
        }
    }

    @Test func aUserTokenNeverOpensTheAdminEndpoints() async throws {
        try await withLiveServer({ $0.adminToken = Self.adminToken }) { client in
            let alice = try await client.account("alice")
            for path in ["/admin/events", "/admin/users/\(alice.id)/audit"] {
                let withUser = try await client.send(.get, path, token: alice.token)
                #expect(withUser.status == .unauthorized && withUser.errorCode == "ADMIN_TOKEN_REQUIRED")
                let wrong = try await client.send(.get, path, headers: [HTTPField.Name("X-Admin-Token")!: "not-the-token"])
                #expect(wrong.status == .unauthorized)
            }
        }
        try await withLiveServer({ $0.demoMode = false; $0.adminToken = nil }) { client in
            let reply = try await client.send(.get, "/admin/events", headers: admin)
            #expect(reply.status == .notFound)
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct ReplayEndpointTests {
    let admin: HTTPFields = [HTTPField.Name("X-Admin-Token")!: AdminTests.adminToken]

    @Test func aReplayRebuildsWhileServingAndChangesNoAnswer() async throws {
        try await withLiveServer({ $0.adminToken = AdminTests.adminToken }) { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob")
            try await client.befriend(alice, bob)
            _ = try await client.send(.post, "/movies/1/rate", token: bob.token, body: #"{"rating":5,"comment":"Yes","is_review":true}"#)
            let views = ["/users/me", "/friends", "/feed/activities", "/movies/1", "/movies/1/reviews"]
            var before: [NSDictionary] = []
            for path in views { before.append(try await client.send(.get, path, token: alice.token).json as NSDictionary) }

            let unknown = try await client.send(.post, "/admin/replay", body: #"{"projections":["nope"]}"#, headers: admin)
            #expect(unknown.status == .badRequest && unknown.errorCode == "VALIDATION_ERROR")
            // An empty list names nothing to rebuild: refused, not a replay of nothing.
            let none = try await client.send(.post, "/admin/replay", body: #"{"projections":[]}"#, headers: admin)
            #expect(none.status == .badRequest && none.errorCode == "VALIDATION_ERROR" && none.text.contains("leave it out"), "\(none.text)")
            #expect(try await client.send(.post, "/admin/replay", token: alice.token).errorCode == "ADMIN_TOKEN_REQUIRED")

            let started = try await client.send(.post, "/admin/replay", headers: admin)
            #expect(started.status == .accepted && started.json["state"] as? String == "running")
            var state = "running"
            for _ in 0..<200 where state == "running" {
                // Requests keep being answered from the old generation while it rebuilds.
                #expect(try await client.send(.get, "/movies/1", token: alice.token).status == .ok)
                try await Task.sleep(for: .milliseconds(20))
                state = try await client.send(.get, "/admin/replay", headers: admin).json["state"] as? String ?? "?"
            }
            let replayStatus = try await client.send(.get, "/admin/replay", headers: admin)
            #expect(replayStatus.headers[.cacheControl] == "no-store", "an operator's answer is kept by no cache")
            let status = replayStatus.json
            let head = try await client.headPosition()
            #expect(state == "finished" && status["position"] as? Int == head, "\(status)")
            var after: [NSDictionary] = []
            for path in views { after.append(try await client.send(.get, path, token: alice.token).json as NSDictionary) }
            #expect(after == before)

            let partial = try await client.send(.post, "/admin/replay", body: #"{"projections":["social","activity"]}"#, headers: admin)
            #expect(partial.json["projections"] as? [String] == ["social", "activity"])
        }
    }
}
