import HTTPServing
import Testing

/// A cook who has used up their bucket gets 429 `{"message"}` with `Retry-After`; another cook (and
/// a sign-in from elsewhere) is not held back by them.
@Suite(.timeLimit(.minutes(3))) struct RateLimitTests {
    @Test func aCookOverTheLimitIsRefusedWithRetryAfterAndOthersAreNot() async throws {
        try await SavryLiveServer.run(rateLimit: RateLimit(requestsPerMinute: 1, burst: 3)) { server in
            let client = server.client
            let ana = try await client.token("ana")
            let ben = try await client.token("ben")
            for _ in 1...3 { #expect(try await client.send(.get, "/api/app/recipes", token: ana).status == .ok) }
            let refused = try await client.send(.get, "/api/app/recipes", token: ana)
            #expect(refused.status == .tooManyRequests && refused.isErrorShape, "\(refused.text)")
            #expect(refused.headers[.retryAfter].flatMap(Int.init).map { $0 >= 1 } == true)
            #expect(try await client.send(.get, "/api/app/recipes", token: ben).status == .ok)
        }
    }
}
