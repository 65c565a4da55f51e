import HTTPServing
import NuvieAPI
import NuvieApp
import Foundation
import HTTPTypes
import Testing

@Suite(.timeLimit(.minutes(3))) struct FeedTests {
    @Test func theFeedShowsWhatFriendsDidNewestFirst() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob"), carol = try await client.account("carol")
            try await client.befriend(alice, bob)
            _ = try await client.send(.post, "/movies/1/rate", token: bob.token, body: #"{"rating":4}"#)
            _ = try await client.send(.post, "/movies/2/rate", token: bob.token, body: #"{"rating":2,"comment":"Meh","is_review":true}"#)
            _ = try await client.send(.post, "/movies/3/watchlist", token: bob.token, body: #"{"action":"add"}"#)
            _ = try await client.send(.post, "/movies/5/watch", token: bob.token, body: #"{"event_type":"started","progress_percent":5}"#)
            _ = try await client.send(.post, "/movies/5/watch", token: bob.token, body: #"{"event_type":"paused","progress_percent":50}"#)
            _ = try await client.send(.post, "/movies/5/watch", token: bob.token, body: #"{"event_type":"completed","progress_percent":100}"#)
            _ = try await client.send(.post, "/movies/1/rate", token: carol.token, body: #"{"rating":1}"#)

            let feed = try await client.send(.get, "/feed/activities", token: alice.token).json
            let activities = try #require(feed["activities"] as? [[String: Any]])
            #expect(activities.map { $0["type"] as? String } == ["watched", "started", "watchlist", "review", "rating"])
            #expect(feed["total_count"] as? Int == 5 && feed["has_more"] as? Bool == false)
            let ids = activities.compactMap { $0["activity_id"] as? Int }
            #expect(ids == ids.sorted(by: >) && Set(ids).count == 5)
            let review = try #require(activities.first { $0["type"] as? String == "review" })
            #expect(Set(review.keys) == [
                "activity_id", "user_id", "user_name", "user_avatar", "movie_id", "movie_title", "movie_poster", "type", "rating", "comment", "timestamp",
            ])
            #expect(review["rating"] as? Int == 2 && review["comment"] as? String == "Meh" && review["movie_title"] as? String == "Jumanji")
            #expect(review["user_id"] as? Int == bob.id && review["movie_poster"] is NSNull && isContractTimestamp(review["timestamp"]))
            #expect(activities.first?["rating"] is NSNull)

            let reviews = try await client.send(.get, "/feed/activities?type=review", token: alice.token).json
            #expect((reviews["activities"] as? [[String: Any]])?.map { $0["activity_id"] as? Int } == [review["activity_id"] as? Int])
            #expect(reviews["total_count"] as? Int == 1)
            #expect(try await client.send(.get, "/feed/activities?type=bogus", token: alice.token).errorCode == "VALIDATION_ERROR")
            let page = try await client.send(.get, "/feed/activities?limit=2&offset=2", token: alice.token).json
            #expect((page["activities"] as? [[String: Any]])?.map { $0["type"] as? String } == ["watchlist", "review"])
            #expect(page["has_more"] as? Bool == true && page["limit"] as? Int == 2 && page["offset"] as? Int == 2)
            // Not friends with carol: her rating is not in alice's feed; bob's feed has none of his own.
            #expect(try await client.send(.get, "/feed/activities", token: bob.token).json["total_count"] as? Int == 0)

            // A page is remembered only until a friend's activity is folded: bob's next rating shows at once.
            _ = try await client.send(.post, "/movies/4/rate", token: bob.token, body: #"{"rating":5}"#)
            let after = try await client.send(.get, "/feed/activities", token: alice.token).json
            #expect((after["activities"] as? [[String: Any]])?.first?["movie_id"] as? Int == 4 && after["total_count"] as? Int == 6)
        }
    }

    /// A remembered page is read again once anything it shows may have changed: a friendship begun or
    /// ended, a friend's new name, not only a friend's new activity.
    @Test func aRememberedPageFollowsFriendshipsAndNames() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob"), carol = try await client.account("carol")
            try await client.befriend(alice, bob)
            _ = try await client.send(.post, "/movies/1/rate", token: bob.token, body: #"{"rating":4}"#)
            _ = try await client.send(.post, "/movies/2/rate", token: carol.token, body: #"{"rating":3}"#)
            func feed() async throws -> (users: [Int?], names: [String?]) {
                let activities = try await client.send(.get, "/feed/activities", token: alice.token).json["activities"] as? [[String: Any]] ?? []
                return (activities.map { $0["user_id"] as? Int }, activities.map { $0["user_name"] as? String })
            }
            #expect(try await feed().users == [bob.id])
            try await client.befriend(carol, alice)
            #expect(try await feed().users == [carol.id, bob.id])
            #expect(try await client.send(.patch, "/users/me", token: carol.token, body: #"{"name":"Carol Renamed"}"#).status == .ok)
            #expect(try await feed().names.first == "Carol Renamed")
            #expect(try await client.send(.delete, "/friends/\(bob.id)", token: alice.token).status == .ok)
            #expect(try await feed().users == [carol.id])
        }
    }

    @Test(arguments: ["limit=0", "limit=101", "limit=-1", "limit=abc", "offset=-1", "offset=x", "limit=%2B5", "offset=%2B0"])
    func paginationOutOfRangeIsA400(_ query: String) async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("alice")
            for path in ["/feed/activities", "/friends/requests", "/users/me/watchlist"] {
                let reply = try await client.send(.get, "\(path)?\(query)", token: token)
                #expect(reply.status == .badRequest && reply.errorCode == "VALIDATION_ERROR", "\(path)?\(query)")
            }
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct ProfileTests {
    @Test func aProfileShowsCountsAndStatsFromTheReadModels() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob")
            try await client.befriend(alice, bob)
            _ = try await client.send(.post, "/movies/1/rate", token: alice.token, body: #"{"rating":5}"#)
            _ = try await client.send(.post, "/movies/3/rate", token: alice.token, body: #"{"rating":2}"#)
            _ = try await client.send(.post, "/movies/5/watch", token: alice.token, body: #"{"event_type":"completed","progress_percent":100}"#)

            let me = try await client.send(.get, "/users/me", token: alice.token).json
            #expect(Set(me.keys) == [
                "user_id", "name", "avatar_url", "bio", "favorite_genres", "favorite_genres_source", "watched_count", "friends_count",
                "ratings_count", "favorites_count", "stats", "member_since", "last_active", "friendship_status", "mutual_friends", "account",
            ])
            #expect(me["watched_count"] as? Int == 3 && me["ratings_count"] as? Int == 2 && me["favorites_count"] as? Int == 1)
            #expect(me["friends_count"] as? Int == 1 && me["bio"] is NSNull && me["friendship_status"] is NSNull)
            #expect(me["favorite_genres"] as? [String] == ["Comedy", "Adventure", "Animation"] && me["favorite_genres_source"] as? String == "derived")
            let stats = try #require(me["stats"] as? [String: Any])
            #expect(stats["average_rating_given"] as? Double == 3.5 && stats["most_watched_genre"] as? String == "Comedy")
            #expect(stats["total_watch_time"] is NSNull)
            #expect((me["account"] as? [String: Any])?["terms_version"] is NSNull)

            let seen = try await client.send(.get, "/users/\(alice.id)", token: bob.token).json
            #expect(seen["friendship_status"] as? String == "friends" && seen["account"] is NSNull && seen["mutual_friends"] as? Int == 0)
            #expect(try await client.send(.get, "/users/99999", token: bob.token).errorCode == "USER_NOT_FOUND")
        }
    }

    @Test func theSetupScreenEditsTheProfileAndRecordsTerms() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("alice")
            let patched = try await client.send(.patch, "/users/me", token: token, body: #"""
                {"name":" Alice Liddell ","bio":"Films at midnight","avatar_url":"https://img.example/a.png","favorite_genres":["thriller","comedy"]}
                """#)
            #expect(patched.status == .ok)
            #expect(patched.json["name"] as? String == "Alice Liddell" && patched.json["bio"] as? String == "Films at midnight")
            #expect(patched.json["favorite_genres"] as? [String] == ["Thriller", "Comedy"])
            #expect(patched.json["favorite_genres_source"] as? String == "chosen")
            // A URL's scheme is in any case.
            let shouted = try await client.send(.patch, "/users/me", token: token, body: #"{"avatar_url":"HTTPS://IMG.EXAMPLE/a.png"}"#)
            #expect(shouted.status == .ok && shouted.json["avatar_url"] as? String == "HTTPS://IMG.EXAMPLE/a.png", "\(shouted.text)")
            let head = try await client.headPosition()
            #expect(try await client.send(.patch, "/users/me", token: token, body: #"{"bio":"Films at midnight"}"#).status == .ok)
            #expect(try await client.headPosition() == head, "a change that changes nothing records nothing")
            let cleared = try await client.send(.patch, "/users/me", token: token, body: #"{"bio":null,"favorite_genres":null}"#).json
            #expect(cleared["bio"] is NSNull && cleared["favorite_genres_source"] as? String == "derived")

            for body in [#"{"name":""}"#, #"{"name":null}"#, #"{"avatar_url":"ftp://x"}"#, #"{"avatar_url":"http://"}"#, #"{"favorite_genres":["Polka"]}"#, #"{"nickname":"al"}"#, #"[1]"#] {
                let reply = try await client.send(.patch, "/users/me", token: token, body: body)
                #expect(reply.status == .badRequest && reply.errorCode == "VALIDATION_ERROR", "\(body)")
            }

            let terms = try await client.send(.post, "/users/me/terms", token: token, body: #"{"version":"2024-01"}"#).json
            let account = try #require(terms["account"] as? [String: Any])
            #expect(account["terms_version"] as? String == "2024-01" && isContractTimestamp(account["terms_accepted_at"]))
            let afterTerms = try await client.headPosition()
            _ = try await client.send(.post, "/users/me/terms", token: token, body: #"{"version":"2024-01"}"#)
            #expect(try await client.headPosition() == afterTerms)
            #expect(try await client.send(.post, "/users/me/terms", token: token, body: "{}").errorCode == "VALIDATION_ERROR")
        }
    }

    @Test func privateDataIsVisibleOnlyToItsOwner() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob")
            _ = try await client.send(.post, "/movies/1/watchlist", token: alice.token, body: #"{"action":"add"}"#)
            #expect(try await client.send(.get, "/users/\(alice.id)/watchlist", token: alice.token).json["total_count"] as? Int == 1)
            let peek = try await client.send(.get, "/users/\(alice.id)/watchlist", token: bob.token)
            #expect(peek.status == .forbidden && peek.errorCode == "FORBIDDEN")
            #expect(try await client.send(.get, "/users/me/watchlist", token: bob.token).json["total_count"] as? Int == 0)
            let patchOther = try await client.send(.patch, "/users/\(alice.id)", token: bob.token, body: #"{"bio":"hacked"}"#)
            #expect([.notFound, .methodNotAllowed].contains(patchOther.status) && patchOther.errorCode != nil)
            #expect(try await client.send(.get, "/users/\(alice.id)", token: bob.token).json["bio"] is NSNull)
            #expect(try await client.send(.get, "/users/\(alice.id)", token: bob.token).json["account"] is NSNull)
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct RecommendAndReviewOrderTests {
    @Test func aFilmIsRecommendedOnlyToFriends() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob"), carol = try await client.account("carol")
            try await client.befriend(alice, bob)
            let sent = try await client.send(.post, "/movies/1/recommend", token: alice.token, body: #"{"user_ids":[\#(bob.id),\#(bob.id)]}"#)
            #expect(sent.status == .ok && sent.json["recommended_to"] as? [Int] == [bob.id] && isContractTimestamp(sent.json["timestamp"]))
            let head = try await client.headPosition()
            let stranger = try await client.send(.post, "/movies/1/recommend", token: alice.token, body: #"{"user_ids":[\#(bob.id),\#(carol.id)]}"#)
            #expect(stranger.status == .forbidden && stranger.errorCode == "NOT_FRIENDS")
            #expect(try await client.send(.post, "/movies/999/recommend", token: alice.token, body: #"{"user_ids":[\#(bob.id)]}"#).errorCode == "MOVIE_NOT_FOUND")
            for body in [#"{"user_ids":[]}"#, #"{"user_ids":"2"}"#, #"{}"#, #"{"user_ids":[1.5]}"#] {
                #expect(try await client.send(.post, "/movies/1/recommend", token: alice.token, body: body).errorCode == "VALIDATION_ERROR", "\(body)")
            }
            #expect(try await client.headPosition() == head)
        }
    }

    @Test func reviewsPutTheCallersOwnThenFriendsThenEveryoneElse() async throws {
        try await withLiveServer { client in
            let carol = try await client.account("carol"), bob = try await client.account("bob"), dave = try await client.account("dave")
            try await client.befriend(carol, bob)
            for (account, text) in [(carol, "Mine"), (bob, "Friend"), (dave, "Stranger")] {
                _ = try await client.send(.post, "/movies/3/rate", token: account.token, body: #"{"rating":4,"comment":"\#(text)","is_review":true}"#)
            }
            let reviews = try #require(try await client.send(.get, "/movies/3/reviews", token: carol.token).json["reviews"] as? [[String: Any]])
            #expect(reviews.map { $0["comment"] as? String } == ["Mine", "Friend", "Stranger"])
            let forDave = try #require(try await client.send(.get, "/movies/3/reviews", token: dave.token).json["reviews"] as? [[String: Any]])
            #expect(forDave.map { $0["comment"] as? String } == ["Stranger", "Friend", "Mine"])
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct RateLimitTests {
    @Test func aCallerOverTheLimitGets429WithRetryAfterAndOthersDoNot() async throws {
        try await withLiveServer({ $0.rateLimit = RateLimit(requestsPerMinute: 1, burst: 5) }) { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob")
            for _ in 0..<5 { #expect(try await client.send(.get, "/users/me", token: alice.token).status == .ok) }
            let limited = try await client.send(.get, "/users/me", token: alice.token)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "RATE_LIMIT_EXCEEDED")
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1)
            #expect(try await client.send(.get, "/users/me", token: bob.token).status == .ok, "limits are per user")
            #expect(try await client.send(.get, "/health").status == .ok, "health checks are not limited")

            // Anonymous callers share their address's bucket: two sign-ins used two of its five.
            for _ in 0..<3 { #expect(try await client.send(.get, "/genres").status == .unauthorized) }
            #expect(try await client.send(.get, "/genres").errorCode == "RATE_LIMIT_EXCEEDED")
            for probe in ["/health", "/health/live", "/metrics"] {
                #expect(try await client.send(.get, probe).status == .ok, "\(probe) is not limited for an address past its limit")
            }
        }
    }

    /// Behind a trusted proxy each client its `X-Forwarded-For` names has a bucket of its own; from any
    /// other address the header changes nothing.
    @Test func behindATrustedProxyAnonymousCallersAreCountedByTheClientItNames() async throws {
        let limit = RateLimit(requestsPerMinute: 1, burst: 2)
        let proxy = try TrustedProxies(parsing: "127.0.0.1")
        try await withLiveServer({ rateLimited(limit, behind: proxy)(&$0) }) { client in
            let statuses = try await anonymousErrorCodes(client, forwardedFor: ["203.0.113.7", "203.0.113.7", "203.0.113.7", "203.0.113.8"])
            #expect(statuses == ["AUTHENTICATION_REQUIRED", "AUTHENTICATION_REQUIRED", "RATE_LIMIT_EXCEEDED", "AUTHENTICATION_REQUIRED"], "another client behind the same proxy has a bucket of its own")
        }
        try await withLiveServer({ rateLimited(limit, behind: .none)(&$0) }) { client in
            let statuses = try await anonymousErrorCodes(client, forwardedFor: ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
            #expect(statuses == ["AUTHENTICATION_REQUIRED", "AUTHENTICATION_REQUIRED", "RATE_LIMIT_EXCEEDED"], "no proxy trusted: the header is the client's own word")
        }
    }
}

private func rateLimited(_ limit: RateLimit, behind proxies: TrustedProxies) -> (inout NuvieConfiguration) -> Void {
    { configuration in
        configuration.rateLimit = limit
        configuration.serving.connections.trustedProxies = proxies
    }
}

/// The error code of `GET /genres` without a token, sent as each address behind a proxy in turn.
private func anonymousErrorCodes(_ client: LiveClient, forwardedFor addresses: [String]) async throws -> [String?] {
    var codes: [String?] = []
    for address in addresses {
        var headers = HTTPFields()
        if let name = HTTPField.Name("X-Forwarded-For") { headers[name] = address }
        codes.append(try await client.send(.get, "/genres", headers: headers).errorCode)
    }
    return codes
}
