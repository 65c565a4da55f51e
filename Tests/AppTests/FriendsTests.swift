import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct FriendsTests {
    @Test func aFriendRequestIsSentListedAnsweredAndEnded() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob"), carol = try await client.account("carol")

            let sent = try await client.send(.post, "/friends/requests", token: alice.token, body: #"{"user_id":\#(bob.id)}"#)
            #expect(sent.status == .created)
            #expect(Set(sent.json.keys) == ["request_id", "user_id", "name", "avatar_url", "mutual_friends", "direction", "created_at"])
            #expect(sent.json["user_id"] as? Int == bob.id && sent.json["direction"] as? String == "outgoing")
            #expect(isContractTimestamp(sent.json["created_at"]))

            let head = try await client.headPosition()
            for (from, to) in [(alice, bob), (bob, alice)] {
                let again = try await client.send(.post, "/friends/requests", token: from.token, body: #"{"user_id":\#(to.id)}"#)
                #expect(again.status == .conflict && again.errorCode == "FRIEND_REQUEST_EXISTS")
            }
            #expect(try await client.headPosition() == head)

            // Incoming requests are visible only to their recipient.
            let incoming = try await client.send(.get, "/friends/requests?direction=incoming", token: bob.token)
            #expect((incoming.json["requests"] as? [[String: Any]])?.map { $0["user_id"] as? Int } == [alice.id])
            #expect(try await client.send(.get, "/friends/requests", token: alice.token).json["total_count"] as? Int == 0)
            #expect(try await client.send(.get, "/friends/requests", token: carol.token).json["total_count"] as? Int == 0)
            #expect(try await client.send(.get, "/friends/requests?direction=outgoing", token: alice.token).json["total_count"] as? Int == 1)
            #expect(try await client.send(.get, "/friends/requests?direction=sideways", token: alice.token).errorCode == "VALIDATION_ERROR")

            // Only the recipient can accept.
            let stolen = try await client.send(.post, "/friends/requests/\(alice.id)/accept", token: carol.token)
            #expect(stolen.status == .notFound && stolen.errorCode == "FRIEND_REQUEST_NOT_FOUND")
            let accepted = try await client.send(.post, "/friends/requests/\(alice.id)/accept", token: bob.token)
            #expect(accepted.status == .ok)
            #expect(Set(accepted.json.keys) == [
                "user_id", "name", "avatar_url", "favorite_genres", "mutual_friends", "status", "request_direction", "watched_count", "last_active",
            ])
            #expect(accepted.json["status"] as? String == "accepted" && accepted.json["user_id"] as? Int == alice.id)
            #expect(accepted.json["avatar_url"] is NSNull && isContractTimestamp(accepted.json["last_active"]))

            let friends = try #require(try await client.send(.get, "/friends", token: alice.token).json["friends"] as? [[String: Any]])
            #expect(friends.map { $0["user_id"] as? Int } == [bob.id] && friends.first?["status"] as? String == "accepted")
            let already = try await client.send(.post, "/friends/requests", token: alice.token, body: #"{"user_id":\#(bob.id)}"#)
            #expect(already.status == .conflict && already.errorCode == "ALREADY_FRIENDS")

            #expect(try await client.send(.delete, "/friends/\(bob.id)", token: alice.token).json["success"] as? Bool == true)
            let notFriends = try await client.send(.delete, "/friends/\(bob.id)", token: alice.token)
            #expect(notFriends.status == .forbidden && notFriends.errorCode == "NOT_FRIENDS")
            let nobody = try await client.send(.delete, "/friends/99999999", token: alice.token)
            #expect(nobody.status == .notFound && nobody.errorCode == "USER_NOT_FOUND")
            // Metrics record the status the error maps to, not a 500.
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains(#"http_route="/friends/{user_id}",http_request_method="DELETE",http_response_status_code="403""#))
            #expect(try await client.send(.get, "/friends", token: bob.token).json["friends"] as? [Any] != nil)
            #expect((try await client.send(.get, "/friends", token: bob.token).json["friends"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aRequestCanBeCancelledBySenderOrDeclinedByRecipient() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), carol = try await client.account("carol")
            _ = try await client.send(.post, "/friends/requests", token: alice.token, body: #"{"user_id":\#(carol.id)}"#)
            let pending = try #require(try await client.send(.get, "/friends", token: carol.token).json["friends"] as? [[String: Any]])
            #expect(pending.first?["status"] as? String == "pending" && pending.first?["request_direction"] as? String == "incoming")
            let wrongSide = try await client.send(.delete, "/friends/requests/\(alice.id)", token: carol.token)
            #expect(wrongSide.errorCode == "FRIEND_REQUEST_NOT_FOUND")
            #expect(try await client.send(.delete, "/friends/requests/\(carol.id)", token: alice.token).status == .ok)
            #expect(try await client.send(.get, "/friends/requests", token: carol.token).json["total_count"] as? Int == 0)

            _ = try await client.send(.post, "/friends/requests", token: carol.token, body: #"{"user_id":\#(alice.id)}"#)
            #expect(try await client.send(.post, "/friends/requests/\(carol.id)/decline", token: alice.token).status == .ok)
            #expect((try await client.send(.get, "/friends", token: alice.token).json["friends"] as? [Any])?.isEmpty == true)
            // Declining is not blocking: carol may ask again.
            #expect(try await client.send(.post, "/friends/requests", token: carol.token, body: #"{"user_id":\#(alice.id)}"#).status == .created)
        }
    }

    @Test func badFriendRequestsAreRefusedAndRecordNothing() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice")
            let head = try await client.headPosition()
            let cases: [(String, String)] = [
                (#"{"user_id":\#(alice.id)}"#, "VALIDATION_ERROR"), (#"{"user_id":99999}"#, "USER_NOT_FOUND"),
                (#"{}"#, "VALIDATION_ERROR"), (#"{"user_id":"2"}"#, "VALIDATION_ERROR"), (#"{"user_id":-3}"#, "VALIDATION_ERROR"),
            ]
            for (body, code) in cases {
                let reply = try await client.send(.post, "/friends/requests", token: alice.token, body: body)
                #expect(reply.errorCode == code, "\(body)")
                #expect((400..<500).contains(reply.status.code))
            }
            #expect(try await client.send(.post, "/friends/requests", body: #"{"user_id":1}"#).errorCode == "AUTHENTICATION_REQUIRED")
            #expect(try await client.send(.get, "/friends").status == .unauthorized)
            #expect(try await client.send(.post, "/friends/requests/abc/accept", token: alice.token).errorCode == "VALIDATION_ERROR")
            #expect(try await client.headPosition() == head)
        }
    }

    @Test func friendsOfFriendsAreSuggestedWithMutualCountsAndAScore() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob"), carol = try await client.account("carol")
            try await client.befriend(alice, bob)
            try await client.befriend(bob, carol)

            let mine = try await client.send(.get, "/friends", token: alice.token).json
            let suggestions = try #require(mine["suggestions"] as? [[String: Any]])
            let suggested = try #require(suggestions.first { $0["user_id"] as? Int == carol.id })
            #expect(Set(suggested.keys) == ["user_id", "name", "avatar_url", "mutual_friends", "shared_genres", "match_score"])
            #expect(suggested["mutual_friends"] as? Int == 1)
            #expect((0...100).contains(suggested["match_score"] as? Int ?? -1))
            #expect(suggestions.first?["user_id"] as? Int == carol.id, "a friend of a friend outranks strangers")
            #expect(!suggestions.contains { [alice.id, bob.id].contains($0["user_id"] as? Int) })

            try await client.befriend(alice, carol)
            let friends = try #require(try await client.send(.get, "/friends", token: alice.token).json["friends"] as? [[String: Any]])
            #expect(friends.first { $0["user_id"] as? Int == carol.id }?["mutual_friends"] as? Int == 1)
            let after = try #require(try await client.send(.get, "/friends", token: alice.token).json["suggestions"] as? [[String: Any]])
            #expect(!after.contains { $0["user_id"] as? Int == carol.id })
        }
    }

    @Test func blockedUsersCannotRequestOrSeeEachOther() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob")
            try await client.befriend(alice, bob)
            _ = try await client.send(.post, "/movies/3/rate", token: bob.token, body: #"{"rating":5,"comment":"Mine","is_review":true}"#)
            #expect(try await client.send(.get, "/feed/activities", token: alice.token).json["total_count"] as? Int == 1)

            #expect(try await client.send(.post, "/users/\(bob.id)/block", token: alice.token).status == .ok)
            #expect(try await client.send(.get, "/feed/activities", token: alice.token).json["total_count"] as? Int == 0)
            #expect(try await client.send(.get, "/movies/3/reviews", token: alice.token).json["total_count"] as? Int == 0)
            let blocker = try await client.send(.post, "/friends/requests", token: alice.token, body: #"{"user_id":\#(bob.id)}"#)
            #expect(blocker.status == .forbidden && blocker.errorCode == "USER_BLOCKED")
            // Bob is not told he is blocked: Alice is not found, as her profile is not.
            let blocked = try await client.send(.post, "/friends/requests", token: bob.token, body: #"{"user_id":\#(alice.id)}"#)
            #expect(blocked.status == .notFound && blocked.errorCode == "USER_NOT_FOUND", "\(blocked.text)")
            #expect(try await client.send(.get, "/users/\(alice.id)", token: bob.token).errorCode == "USER_NOT_FOUND")
            // Nor does Bob's own export say who blocked him; Alice's shows her decision.
            #expect(try await client.send(.get, "/users/me/export", token: bob.token).text.contains("user-blocked") == false)
            #expect(try await client.send(.get, "/users/me/export", token: alice.token).text.contains("user-blocked"))
            #expect(try await client.send(.get, "/users/\(bob.id)", token: alice.token).json["friendship_status"] as? String == "blocked")
            let listed = try #require(try await client.send(.get, "/friends", token: alice.token).json["friends"] as? [[String: Any]])
            #expect(listed.map { $0["status"] as? String } == ["blocked"])

            #expect(try await client.send(.delete, "/users/\(bob.id)/block", token: alice.token).status == .ok)
            #expect(try await client.send(.post, "/friends/requests", token: bob.token, body: #"{"user_id":\#(alice.id)}"#).status == .created)
            let nobody = try await client.send(.delete, "/users/99999/block", token: alice.token)
            #expect(nobody.status == .notFound && nobody.errorCode == "USER_NOT_FOUND", "\(nobody.text)")
        }
    }

    /// A deleted account's requests and friendships left every list: none is accepted, cancelled or
    /// recommended to afterwards (an accepted one made a friend nobody could remove).
    @Test func aDeletedUsersRequestsAndFriendshipsCannotBeActedOn() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob"), carol = try await client.account("carol")
            let dave = try await client.account("dave")
            try await client.befriend(alice, carol)
            #expect(try await client.send(.post, "/friends/requests", token: alice.token, body: #"{"user_id":\#(bob.id)}"#).status == .created)
            #expect(try await client.send(.post, "/friends/requests", token: dave.token, body: #"{"user_id":\#(alice.id)}"#).status == .created)
            #expect(try await client.send(.delete, "/users/me", token: alice.token).status == .noContent)
            let head = try await client.headPosition()
            let accepted = try await client.send(.post, "/friends/requests/\(alice.id)/accept", token: bob.token)
            #expect(accepted.status == .notFound && accepted.errorCode == "FRIEND_REQUEST_NOT_FOUND", "\(accepted.text)")
            let cancelled = try await client.send(.delete, "/friends/requests/\(alice.id)", token: dave.token)
            #expect(cancelled.status == .notFound && cancelled.errorCode == "FRIEND_REQUEST_NOT_FOUND", "\(cancelled.text)")
            let recommended = try await client.send(.post, "/movies/1/recommend", token: carol.token, body: #"{"user_ids":[\#(alice.id)]}"#)
            #expect(recommended.status == .notFound && recommended.errorCode == "USER_NOT_FOUND", "\(recommended.text)")
            #expect(try await client.headPosition() == head)
            #expect((try await client.send(.get, "/friends", token: bob.token).json["friends"] as? [Any])?.isEmpty == true)
        }
    }
}
