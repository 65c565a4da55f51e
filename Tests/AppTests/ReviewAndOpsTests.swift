import Foundation
import HTTPTypes
import Testing

@Suite(.timeLimit(.minutes(3))) struct ReviewAndOpsTests {
    @Test func reviewsArePagedAndLikedIdempotently() async throws {
        try await withLiveServer { client in
            var tokens: [String] = []
            for user in 1...3 { tokens.append(try await client.devLogin("movielens-\(user)")) }
            for (i, token) in tokens.enumerated() {
                let reply = try await client.send(.post, "/movies/5/rate", token: token, body: #"{"rating":\#(i + 3),"comment":"Review \#(i + 1)","is_review":true}"#)
                #expect(reply.status == .ok)
            }
            let first = try await client.send(.get, "/movies/5/reviews?limit=2", token: tokens[0])
            #expect(first.json["total_count"] as? Int == 3)
            #expect(first.json["limit"] as? Int == 2 && first.json["offset"] as? Int == 0 && first.json["has_more"] as? Bool == true)
            let reviews = try #require(first.json["reviews"] as? [[String: Any]])
            #expect(reviews.count == 2)
            #expect(Set(reviews[0].keys) == ["review_id", "user_id", "user_name", "user_avatar", "movie_id", "rating", "comment", "timestamp", "likes", "user_liked"])
            #expect(reviews.allSatisfy { isContractTimestamp($0["timestamp"]) })
            let last = try await client.send(.get, "/movies/5/reviews?limit=2&offset=2", token: tokens[0])
            #expect((last.json["reviews"] as? [Any])?.count == 1 && last.json["has_more"] as? Bool == false)
            let past = try await client.send(.get, "/movies/5/reviews?offset=50", token: tokens[0])
            #expect((past.json["reviews"] as? [Any])?.count == 0 && past.json["total_count"] as? Int == 3)
            for query in ["limit=0", "limit=101", "limit=-1", "limit=abc", "offset=-1", "offset=x"] {
                let reply = try await client.send(.get, "/movies/5/reviews?\(query)", token: tokens[0])
                #expect(reply.status == .badRequest && reply.errorCode == "VALIDATION_ERROR", "\(query)")
            }

            let reviewId = try #require(reviews.first?["review_id"] as? Int)
            let liked = try await client.send(.post, "/reviews/\(reviewId)/like", token: tokens[0])
            #expect(liked.json["likes"] as? Int == 1 && liked.json["user_liked"] as? Bool == true)
            let head = try await client.headPosition()
            #expect(try await client.send(.post, "/reviews/\(reviewId)/like", token: tokens[0]).json["likes"] as? Int == 1)
            #expect(try await client.headPosition() == head)
            #expect(try await client.send(.post, "/reviews/\(reviewId)/like", token: tokens[1]).json["likes"] as? Int == 2)
            let unliked = try await client.send(.delete, "/reviews/\(reviewId)/like", token: tokens[0])
            #expect(unliked.json["likes"] as? Int == 1 && unliked.json["user_liked"] as? Bool == false)
            let listed = try await client.send(.get, "/movies/5/reviews", token: tokens[1])
            let mine = (listed.json["reviews"] as? [[String: Any]])?.first { $0["review_id"] as? Int == reviewId }
            #expect(mine?["user_liked"] as? Bool == true && mine?["likes"] as? Int == 1)

            #expect(try await client.send(.post, "/reviews/1/like", token: tokens[0]).errorCode == "REVIEW_NOT_FOUND")
            #expect(try await client.send(.post, "/reviews/999999/like", token: tokens[0]).errorCode == "REVIEW_NOT_FOUND")
        }
    }

    /// A review goes with its author's account: liking or unliking it afterwards is refused and
    /// records nothing (a like was appended, then answered 404).
    @Test func aDeletedAuthorsReviewCannotBeLiked() async throws {
        try await withLiveServer { client in
            let author = try await client.account("reviewer"), reader = try await client.account("reader")
            #expect(try await client.send(.post, "/movies/5/rate", token: author.token, body: #"{"rating":4,"comment":"Fine","is_review":true}"#).status == .ok)
            let reviews = try #require(try await client.send(.get, "/movies/5/reviews", token: reader.token).json["reviews"] as? [[String: Any]])
            let reviewId = try #require(reviews.first { $0["user_id"] as? Int == author.id }?["review_id"] as? Int)
            #expect(try await client.send(.delete, "/users/me", token: author.token).status == .noContent)
            let head = try await client.headPosition()
            for method in [HTTPRequest.Method.post, .delete] {
                let reply = try await client.send(method, "/reviews/\(reviewId)/like", token: reader.token)
                #expect(reply.status == .notFound && reply.errorCode == "REVIEW_NOT_FOUND", "\(method): \(reply.text)")
            }
            #expect(try await client.headPosition() == head)
        }
    }

    @Test func healthMetricsAndRequestIds() async throws {
        try await withLiveServer { client in
            let health = try await client.send(.get, "/health")
            #expect(health.status == .ok)
            let head = try #require(health.json["log_head_position"] as? Int)
            #expect(head > 0)
            let projections = try #require(health.json["projections"] as? [[String: Any]])
            #expect(Set(projections.compactMap { $0["name"] as? String }) == [
                "catalog", "movie-stats", "user-ratings", "reviews", "users", "watch", "social", "activity", "taste",
            ])
            #expect(projections.allSatisfy { $0["failed_position"] is NSNull && $0["lag"] is Int })

            let token = try await client.devLogin("movielens-1")
            _ = try await client.send(.post, "/movies/3/rate", token: token, body: #"{"rating":4}"#)
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(metrics.text.contains("nuvie_log_append_duration"))
            #expect(metrics.text.contains("nuvie_projection_lag_events"))
            #expect(metrics.text.contains("hb_requests"))
            #expect(!metrics.text.contains(#"error_type="200""#), "an answer that is no error has no error series")

            let tagged = try await client.send(.get, "/movies/1", token: token, headers: [HTTPField.Name("X-Request-Id")!: "ios-trace-42"])
            #expect(tagged.headers[HTTPField.Name("X-Request-Id")!] == "ios-trace-42")
            let generated = try await client.send(.get, "/movies/999", token: token)
            #expect(generated.headers[HTTPField.Name("X-Request-Id")!]?.isEmpty == false)
        }
    }
}
