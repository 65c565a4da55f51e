import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct WatchlistTests {
    @Test func watchlistAndWatchStatusFollowTheUsersEvents() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("movielens-1")
            let other = try await client.devLogin("someone-else")

            let added = try await client.send(.post, "/movies/5/watchlist", token: token, body: #"{"action":"add"}"#)
            #expect(added.status == .ok)
            #expect(added.json["in_watchlist"] as? Bool == true)
            let head = try await client.headPosition()
            #expect(try await client.send(.post, "/movies/5/watchlist", token: token, body: #"{"action":"add"}"#).json["in_watchlist"] as? Bool == true)
            #expect(try await client.headPosition() == head)
            _ = try await client.send(.post, "/movies/2/watchlist", token: token, body: #"{"action":"add"}"#)

            let list = try await client.send(.get, "/users/me/watchlist?limit=1", token: token)
            #expect(list.json["total_count"] as? Int == 2 && list.json["has_more"] as? Bool == true)
            let first = try #require((list.json["movies"] as? [[String: Any]])?.first)
            #expect(first["movie_id"] as? Int == 2)
            #expect(Set(first.keys) == ["movie_id", "title", "poster_url", "genres", "release_date", "rating", "ai_score"])
            // Private to its owner: another user sees their own (empty) list.
            #expect(try await client.send(.get, "/users/me/watchlist", token: other).json["total_count"] as? Int == 0)
            #expect(try await client.send(.get, "/movies/5", token: other).json["in_watchlist"] as? Bool == false)

            let removed = try await client.send(.post, "/movies/5/watchlist", token: token, body: #"{"action":"remove"}"#)
            #expect(removed.json["in_watchlist"] as? Bool == false)

            let started = try await client.send(.post, "/movies/5/watch", token: token, body: #"{"event_type":"started","progress_percent":25}"#)
            #expect(started.json["watch_status"] as? String == "started")
            _ = try await client.send(.post, "/movies/5/watch", token: token, body: #"{"event_type":"completed","progress_percent":100}"#)
            #expect(try await client.send(.get, "/movies/5", token: token).json["watch_status"] as? String == "completed")
            #expect(try await client.send(.get, "/movies/5", token: other).json["watch_status"] is NSNull)
            // Finished once, then started again: still a film watched to the end.
            func watched() async throws -> Int? { try await client.send(.get, "/users/me", token: token).json["watched_count"] as? Int }
            let finished = try await watched()
            _ = try await client.send(.post, "/movies/5/watch", token: token, body: #"{"event_type":"started","progress_percent":5}"#)
            #expect(try await client.send(.get, "/movies/5", token: token).json["watch_status"] as? String == "started")
            #expect(try await watched() == finished && (finished ?? 0) >= 1, "\(String(describing: finished))")
            let recommended = try await client.send(.get, "/feed/recommendations?limit=100", token: token).json["recommendations"] as? [[String: Any]]
            #expect(recommended?.contains { $0["movie_id"] as? Int == 5 } == false, "a film finished is never recommended, started again or not")
        }
    }

    @Test func genresListTheCatalogsGenresWithCounts() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("movielens-1")
            let genres = try #require(try await client.send(.get, "/genres", token: token).json["genres"] as? [[String: Any]])
            #expect(genres.first?["name"] as? String == "Action" && genres.first?["movie_count"] as? Int == 1)
            #expect(genres.first { $0["name"] as? String == "Adventure" }?["movie_count"] as? Int == 2)
            #expect(genres.count == 10)
        }
    }

    /// The contract shows `progress_percent` but does not require it: a start without it is at 0, a
    /// completion at 100 (a pause must say where, above).
    @Test func aStartOrACompletionNeedsNoProgress() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("movielens-1")
            let started = try await client.send(.post, "/movies/5/watch", token: token, body: #"{"event_type":"started"}"#)
            #expect(started.status == .ok && started.json["watch_status"] as? String == "started")
            let completed = try await client.send(.post, "/movies/5/watch", token: token, body: #"{"event_type":"completed"}"#)
            #expect(completed.status == .ok && completed.json["watch_status"] as? String == "completed")
        }
    }

    @Test func badWatchRequestsAreRejectedAndRecordNothing() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("movielens-1")
            let head = try await client.headPosition()
            for body in [#"{"action":"toggle"}"#, #"{}"#, #"{"action":1}"#] {
                #expect(try await client.send(.post, "/movies/5/watchlist", token: token, body: body).errorCode == "VALIDATION_ERROR", "\(body)")
            }
            for body in [#"{"event_type":"rewound","progress_percent":5}"#, #"{"event_type":"paused","progress_percent":101}"#,
                         #"{"event_type":"paused","progress_percent":-1}"#, #"{"event_type":"paused","progress_percent":2.5}"#, #"{"event_type":"paused"}"#] {
                #expect(try await client.send(.post, "/movies/5/watch", token: token, body: body).errorCode == "VALIDATION_ERROR", "\(body)")
            }
            #expect(try await client.send(.post, "/movies/999/watchlist", token: token, body: #"{"action":"add"}"#).errorCode == "MOVIE_NOT_FOUND")
            #expect(try await client.send(.post, "/movies/999/watch", token: token, body: #"{"event_type":"started","progress_percent":0}"#).errorCode == "MOVIE_NOT_FOUND")
            #expect(try await client.send(.get, "/users/me/watchlist").errorCode == "AUTHENTICATION_REQUIRED")
            #expect(try await client.headPosition() == head)
        }
    }
}
