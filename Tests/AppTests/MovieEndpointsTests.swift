import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct MovieEndpointsTests {
    @Test func aDemoUserSignsInSeesAMovieRatesItAndSeesTheirRating() async throws {
        try await withLiveServer { client in
            let login = try await client.send(.post, "/auth/login", body: #"{"provider":"dev","token":"","user_identifier":"movielens-1"}"#)
            #expect(login.status == .ok)
            let user = try #require(login.json["user"] as? [String: Any])
            #expect(user["user_id"] as? Int == 1)
            #expect(user["name"] as? String == "David Park")
            #expect(Set(user.keys) == ["user_id", "name", "avatar_url", "email"])
            #expect(user["avatar_url"] is NSNull)
            let token = try #require(login.json["access_token"] as? String)

            let movie = try await client.send(.get, "/movies/1", token: token)
            #expect(movie.status == .ok)
            #expect(Set(movie.json.keys) == [
                "movie_id", "title", "genres", "poster_url", "overview", "release_date", "tmdb_id", "rating", "rating_count",
                "user_rating", "ai_score", "social_score", "in_watchlist", "watch_status",
            ])
            #expect(movie.json["title"] as? String == "Toy Story")
            #expect(movie.json["genres"] as? [String] == ["Adventure", "Animation", "Children", "Comedy", "Fantasy"])
            #expect(movie.json["release_date"] as? String == "1995-01-01")
            #expect(movie.json["tmdb_id"] as? Int == 862)
            #expect(movie.json["rating"] as? Double == 4.17)
            #expect(movie.json["rating_count"] as? Int == 3)
            #expect(movie.json["user_rating"] as? Int == 4)
            #expect(movie.json["in_watchlist"] as? Bool == false)
            for key in ["poster_url", "overview", "watch_status"] { #expect(movie.json[key] is NSNull, "\(key)") }
            for key in ["ai_score", "social_score"] { #expect((0...100).contains(movie.json[key] as? Int ?? -1), "\(key)") }

            let rated = try await client.send(.post, "/movies/1/rate", token: token, body: #"{"rating":5,"comment":"Still perfect","is_review":true}"#)
            #expect(rated.status == .ok)
            #expect(rated.json["success"] as? Bool == true)
            let rating = try #require(rated.json["rating"] as? [String: Any])
            #expect(rating["user_id"] as? Int == 1 && rating["movie_id"] as? Int == 1 && rating["rating"] as? Int == 5)
            #expect(rating["comment"] as? String == "Still perfect")
            #expect(isContractTimestamp(rating["timestamp"]))

            // Read-your-writes: the very next read shows it.
            let after = try await client.send(.get, "/movies/1", token: token)
            #expect(after.json["user_rating"] as? Int == 5)
            #expect(after.json["rating"] as? Double == 4.5)
            #expect(after.json["rating_count"] as? Int == 3)
        }
    }

    /// A film is remembered per viewer while the read models hold still: anyone's write moves them.
    @Test func aRememberedFilmFollowsOtherUsersRatingsAndTheViewersWatchlist() async throws {
        try await withLiveServer { client in
            let viewer = try await client.devLogin("movielens-1")
            let other = try await client.devLogin("movielens-2")
            for _ in 0..<2 {
                let seen = try await client.send(.get, "/movies/1", token: viewer)
                #expect(seen.json["rating_count"] as? Int == 3)
                #expect(seen.json["in_watchlist"] as? Bool == false)
            }
            #expect(try await client.send(.post, "/movies/1/rate", token: other, body: #"{"rating":1}"#).status == .ok)
            let afterRating = try await client.send(.get, "/movies/1", token: viewer)
            #expect((afterRating.json["rating"] as? Double ?? 5) < 4.17)
            #expect(try await client.send(.post, "/movies/1/watchlist", token: viewer, body: #"{"action":"add"}"#).status == .ok)
            #expect(try await client.send(.get, "/movies/1", token: viewer).json["in_watchlist"] as? Bool == true)
        }
    }

    /// The viewer's scores are remembered too while the read models hold still: a friend's
    /// recommendation moves them, and the next read shows its social score.
    @Test func rememberedScoresFollowAFriendsRecommendation() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob")
            #expect(try await client.send(.post, "/friends/requests", token: alice.token, body: #"{"user_id":\#(bob.id)}"#).status == .created)
            #expect(try await client.send(.post, "/friends/requests/\(alice.id)/accept", token: bob.token).status == .ok)
            for _ in 0..<2 { #expect(try await client.send(.get, "/movies/1", token: alice.token).json["social_score"] as? Int == 0) }
            let recommended = try await client.send(.post, "/movies/1/recommend", token: bob.token, body: #"{"user_ids":[\#(alice.id)]}"#)
            #expect(recommended.status == .ok)
            #expect(try await client.send(.get, "/movies/1", token: alice.token).json["social_score"] as? Int == 33)
        }
    }

    /// A friend's rating touches what the viewer's remembered scores rest on; a stranger's rating of
    /// the same film does not move the social score, and the next read after the friend's shows it.
    @Test func rememberedScoresFollowAFriendsRating() async throws {
        try await withLiveServer { client in
            let alice = try await client.account("alice"), bob = try await client.account("bob"), carol = try await client.account("carol")
            #expect(try await client.send(.post, "/friends/requests", token: alice.token, body: #"{"user_id":\#(bob.id)}"#).status == .created)
            #expect(try await client.send(.post, "/friends/requests/\(alice.id)/accept", token: bob.token).status == .ok)
            let before = try #require(try await client.send(.get, "/movies/2", token: alice.token).json["rating_count"] as? Int)
            for _ in 0..<2 { #expect(try await client.send(.get, "/movies/2", token: alice.token).json["social_score"] as? Int == 0) }
            #expect(try await client.send(.post, "/movies/2/rate", token: carol.token, body: #"{"rating":5}"#).status == .ok)
            #expect(try await client.send(.get, "/movies/2", token: alice.token).json["social_score"] as? Int == 0)
            #expect(try await client.send(.post, "/movies/2/rate", token: bob.token, body: #"{"rating":5}"#).status == .ok)
            let after = try await client.send(.get, "/movies/2", token: alice.token)
            #expect(after.json["social_score"] as? Int == 33)
            #expect(after.json["rating_count"] as? Int == before + 2)
        }
    }

    @Test func aFilmWithoutYearOrRatingsHasNullsNotOmissions() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("movielens-2")
            let movie = try await client.send(.get, "/movies/4", token: token)
            #expect(movie.status == .ok)
            #expect(movie.json["release_date"] is NSNull)
            #expect(movie.json["tmdb_id"] is NSNull)
            #expect(movie.json["rating"] is NSNull)
            #expect(movie.json["rating_count"] as? Int == 0)
            #expect(movie.json["user_rating"] is NSNull)
            #expect(movie.json["genres"] as? [String] == [])
        }
    }

    @Test func badRatingsAreRejectedAndRecordNothing() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("movielens-1")
            let head = try await client.headPosition()
            for body in [#"{"rating":0}"#, #"{"rating":6}"#, #"{"rating":4.5}"#, #"{"rating":"5"}"#, #"{"rating":true}"#, #"{}"#, #"{"rating":null}"#] {
                let reply = try await client.send(.post, "/movies/1/rate", token: token, body: body)
                #expect(reply.status == .badRequest, "\(body)")
                #expect(reply.errorCode == "RATING_INVALID", "\(body)")
                #expect(reply.json["error"].flatMap { ($0 as? [String: Any])?["details"] } is [String: Any])
            }
            for body in ["not json", "[1,2]", #"{"rating":5,"comment":7}"#, #"{"rating":5,"is_review":"yes"}"#, ""] {
                let reply = try await client.send(.post, "/movies/1/rate", token: token, body: body)
                #expect(reply.status == .badRequest, "\(body)")
                #expect(reply.errorCode == "VALIDATION_ERROR", "\(body)")
            }
            let long = String(repeating: "a", count: 2001)
            #expect(try await client.send(.post, "/movies/1/rate", token: token, body: #"{"rating":5,"comment":"\#(long)"}"#).status == .badRequest)
            let tooLarge = try await client.send(.post, "/movies/1/rate", token: token, body: #"{"rating":5,"comment":"\#(String(repeating: "b", count: 70_000))"}"#)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.errorCode == "PAYLOAD_TOO_LARGE")
            #expect((tooLarge.json["error"] as? [String: Any])?["message"] as? String == "Request body is too large: at most 64 KB", "\(tooLarge.json)")
            #expect(try await client.headPosition() == head)
        }
    }

    @Test func unknownAndMalformedMovieIds() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("movielens-1")
            let head = try await client.headPosition()
            let missing = try await client.send(.get, "/movies/999", token: token)
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "MOVIE_NOT_FOUND")
            #expect((missing.json["error"] as? [String: Any])?["message"] as? String == "Movie with ID 999 not found")
            #expect(try await client.send(.post, "/movies/999/rate", token: token, body: #"{"rating":3}"#).errorCode == "MOVIE_NOT_FOUND")
            #expect(try await client.send(.get, "/movies/999/reviews", token: token).errorCode == "MOVIE_NOT_FOUND")
            #expect(try await client.send(.get, "/movies/abc", token: token).errorCode == "VALIDATION_ERROR")
            #expect(try await client.send(.get, "/movies/-1", token: token).status == .badRequest)
            let noRoute = try await client.send(.get, "/no/such/route", token: token)
            #expect(noRoute.status == .notFound && noRoute.errorCode == "NOT_FOUND")
            #expect(try await client.headPosition() == head)
        }
    }

    @Test func anIdempotencyKeyRecordsARetriedRatingOnce() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("movielens-1")
            let head = try await client.headPosition()
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "3f1c0d6e-rate-once"]
            for _ in 0..<3 {
                #expect(try await client.send(.post, "/movies/2/rate", token: token, body: #"{"rating":2}"#, headers: key).status == .ok)
            }
            #expect(try await client.headPosition() == head + 1)
        }
    }
}

import HTTPTypes
