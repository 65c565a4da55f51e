import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct DiscoveryTests {
    @Test func searchServesTheContractsEnvelopeAndIsNotAMovieId() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("alice")
            let found = try await client.send(.get, "/movies/search?q=heat", token: token)
            #expect(found.status == .ok)
            let movies = try #require(found.json["movies"] as? [[String: Any]])
            #expect(movies.map { $0["movie_id"] as? Int } == [5])
            #expect(Set(movies[0].keys) == ["movie_id", "title", "poster_url", "genres", "release_date", "rating", "ai_score"])
            #expect(movies[0]["poster_url"] is NSNull && movies[0]["release_date"] as? String == "1995-01-01")
            #expect(found.json["total_count"] as? Int == 1 && found.json["has_more"] as? Bool == false)

            // A tag ("pixar" on Toy Story) finds its film; genres filter case-insensitively, any of them.
            #expect((try await client.send(.get, "/movies/search?q=pixar", token: token).json["movies"] as? [[String: Any]])?.first?["movie_id"] as? Int == 1)
            let crime = try await client.send(.get, "/movies/search?genres=crime,%20ROMANCE", token: token).json
            #expect(Set((crime["movies"] as? [[String: Any]])?.compactMap { $0["movie_id"] as? Int } ?? []) == [3, 5])
            // A genre named again, in any case, is the same filter; more genres than a catalog holds, or a longer name, is refused.
            let thirty = (1...30).map { "g\($0)" }.joined(separator: ",")
            let repeated = try await client.send(.get, "/movies/search?genres=\(thirty)," + Array(repeating: "Romance,crime,CRIME", count: 1_000).joined(separator: ","), token: token).json
            #expect(Set((repeated["movies"] as? [[String: Any]])?.compactMap { $0["movie_id"] as? Int } ?? []) == [3, 5], "\(repeated)")
            #expect(try await client.send(.get, "/movies/search?genres=\(String(repeating: "x", count: 64))", token: token).status == .ok)
            for genres in [thirty + ",crime,romance,drama", String(repeating: "x", count: 65), String(repeating: "%C3%A9", count: 33)] {
                let reply = try await client.send(.get, "/movies/search?genres=\(genres)", token: token)
                #expect(reply.status == .badRequest && reply.errorCode == "VALIDATION_ERROR", "\(reply.text)")
            }
            let browse = try await client.send(.get, "/movies/search?limit=2", token: token).json
            #expect(browse["total_count"] as? Int == 5 && browse["has_more"] as? Bool == true)

            for query in ["limit=0", "limit=101", "limit=-1", "limit=abc", "offset=-5", "q=" + String(repeating: "x", count: 201)] {
                let reply = try await client.send(.get, "/movies/search?\(query)", token: token)
                #expect(reply.status == .badRequest && reply.errorCode == "VALIDATION_ERROR", "\(query)")
            }
            #expect(try await client.send(.get, "/movies/search?q=%22%2A%28", token: token).status == .ok)
            #expect(try await client.send(.get, "/movies/search?q=heat").errorCode == "AUTHENTICATION_REQUIRED")
        }
    }

    /// Search pages are remembered whole, for everyone; a rating moves what they are remembered by.
    @Test func aRememberedSearchPageFollowsNewRatings() async throws {
        try await withLiveServer { client in
            let alice = try await client.devLogin("alice")
            func heat() async throws -> (rating: Double?, body: String) {
                let reply = try await client.send(.get, "/movies/search?q=heat", token: alice)
                return ((reply.json["movies"] as? [[String: Any]])?.first?["rating"] as? Double, reply.text)
            }
            let before = try await heat()
            #expect(try await heat().body == before.body)
            for name in ["bob", "carol"] {
                let token = try await client.devLogin(name)
                #expect(try await client.send(.post, "/movies/5/rate", token: token, body: #"{"rating":1}"#).status == .ok)
            }
            let after = try await heat()
            #expect(after.rating != nil && after.rating != before.rating)
            #expect(after.rating ?? 5 < before.rating ?? 6)
        }
    }

    @Test func trendingShowsTheWindowAndItsCounts() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("alice")
            let trending = try await client.send(.get, "/movies/trending?window_days=30", token: token).json
            let window = try #require(trending["window"] as? [String: Any])
            #expect(window["days"] as? Int == 30 && isContractTimestamp(window["from"]) && isContractTimestamp(window["to"]))
            let movies = try #require(trending["movies"] as? [[String: Any]])
            #expect(!movies.isEmpty && movies.allSatisfy { ($0["window_rating_count"] as? Int ?? 0) >= 1 })
            #expect(Set(movies[0].keys) == ["movie_id", "title", "poster_url", "genres", "release_date", "rating", "ai_score", "window_rating_count"])
            let counts = movies.compactMap { $0["window_rating_count"] as? Int }
            #expect(counts == counts.sorted(by: >))
            #expect(trending["total_count"] as? Int == movies.count && trending["limit"] as? Int == 20)

            // A rating now makes now the end of the window.
            _ = try await client.send(.post, "/movies/4/rate", token: token, body: #"{"rating":3}"#)
            let today = try await client.send(.get, "/movies/trending?window_days=1", token: token).json
            #expect((today["movies"] as? [[String: Any]])?.map { $0["movie_id"] as? Int } == [4])
            for query in ["window_days=0", "window_days=366", "window_days=week"] {
                #expect(try await client.send(.get, "/movies/trending?\(query)", token: token).errorCode == "VALIDATION_ERROR", "\(query)")
            }
        }
    }
}
