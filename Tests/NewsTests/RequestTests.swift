import Foundation
import HTTPTypes
import NewsDomain
import Testing

/// Interpretation, preferences, the user id, the rate limit and the error shape.
@Suite struct RequestTests {
    @Test func interpretScoresPastedTextWithTheFeedsScorer() async throws {
        try await NewsLiveServer.run { server in
            _ = try await server.send(.put, "/v1/preferences", json: #"{"holdings":["AAPL"]}"#)
            let reply = try await server.send(.post, "/v1/interpret", json: #"{"textOrUrl":"Apple announces new product line with innovative features"}"#)
            #expect(reply.status == .ok)
            FeedTests.expectSignal(reply.json)
            #expect((reply.json["id"] as? String)?.hasPrefix("text://") == true)
            #expect(reply.json["source"] as? String == "User Input")
            #expect(reply.json["why"] as? [String] == ["Mentions Apple Inc. (AAPL), which you hold", "Product news: the text says “new product”"])
            #expect(reply.json["horizon"] as? String == "long")
            let url = try await server.send(.post, "/v1/interpret", json: #"{"textOrUrl":"https://news.example/apple-earnings"}"#)
            #expect(url.status == .ok && (url.json["source"] as? String)?.contains("not fetched") == true)
            #expect(url.json["url"] as? String == "https://news.example/apple-earnings", "the link to the original article")
            for body in [#"{}"#, #"{"textOrUrl":""}"#, #"{"textOrUrl":5}"#, "nonsense", #"{"textOrUrl":"Apple\u0000 beats"}"#] {
                let refused = try await server.send(.post, "/v1/interpret", json: body)
                #expect(refused.status == .badRequest && refused.isErrorShape, "\(body): \(refused.text)")
            }
        }
    }

    /// The engine's operator routes answer their refusals in the contract's error shape, not 500.
    @Test func operatorRefusalsAreAnsweredInTheErrorShape() async throws {
        try await NewsLiveServer.run(adminToken: "news-operator-secret-news-operator-secret") { server in
            let admin: HTTPFields = [HTTPField.Name("X-Admin-Token")!: "news-operator-secret-news-operator-secret"]
            let erase = try await server.send(.post, "/admin/users/5/erase", headers: admin)
            #expect(erase.status == .notFound && erase.isErrorShape)
            let replay = try await server.send(.post, "/admin/replay", json: #"{"projections":["nothing-by-that-name"]}"#, headers: admin)
            #expect(replay.status == .badRequest && replay.isErrorShape)
            let refused = try await server.send(.post, "/admin/users/5/erase")
            #expect(refused.status == .forbidden && refused.isErrorShape)
        }
    }

    /// A body is read only when it is declared `application/json`, in any case and with parameters;
    /// a near miss (`application/jsonp`) is refused as any other type is, and records nothing.
    @Test func aBodyMustBeDeclaredJSON() async throws {
        try await NewsLiveServer.run { server in
            let before = server.storage.stores.log.headPosition
            let body = #"{"holdings":["AAPL"]}"#
            for type in ["application/jsonp", "application/json-seq", "text/plain", "application/x-www-form-urlencoded"] {
                let reply = try await server.send(.put, "/v1/preferences", json: body, headers: [.contentType: type])
                #expect(reply.status == .unsupportedMediaType && reply.isErrorShape, "\(type): \(reply.text)")
            }
            #expect(server.storage.stores.log.headPosition == before)
            let declared = try await server.send(.put, "/v1/preferences", json: body, headers: [.contentType: "Application/JSON; charset=utf-8"])
            #expect(declared.status == .ok, "\(declared.text)")
        }
    }

    @Test func preferencesRefuseMalformedHoldingsAndRecordNothing() async throws {
        try await NewsLiveServer.run { server in
            let before = server.storage.stores.log.headPosition
            let cases: [(String, String)] = [
                (#"{"holdings":["TOOLONG"]}"#, "Invalid ticker format. Use 1-5 letters/numbers (e.g., AAPL, NVDA)"),
                (#"{"holdings":["BRK.B"]}"#, "Invalid ticker format. Use 1-5 letters/numbers (e.g., AAPL, NVDA)"),
                (#"{"holdings":[{"label":"no ticker"}]}"#, "Invalid holdings"),
                (#"{"holdings":[{"ticker":"AAPL","label":"a\u0000b"}]}"#, "Invalid request"),
                (#"{"holdings":"AAPL"}"#, "Invalid holdings"),
                (#"{"focus_profile":"wide"}"#, "Invalid focus_profile"),
                (#"["AAPL"]"#, "Invalid JSON"),
                // Misspelt, and so silently left out before.
                (#"{"focusProfile":"focused","holding":["AAPL"]}"#, "Unknown field"),
                (#"{"holdings":[{"ticker":"AAPL","extra":1}]}"#, "Invalid holdings"),
            ]
            for (body, error) in cases {
                let reply = try await server.send(.put, "/v1/preferences", json: body)
                #expect(reply.status == .badRequest && reply.isErrorShape && reply.json["error"] as? String == error, "\(body): \(reply.text)")
            }
            #expect(server.storage.stores.log.headPosition == before)
            let same = #"{"focus_profile":"broad","holdings":["aapl"]}"#
            #expect(try await server.send(.put, "/v1/preferences", json: same).json["holdings_count"] as? Int == 1)
            let after = server.storage.stores.log.headPosition
            #expect(try await server.send(.put, "/v1/preferences", json: same).status == .ok)
            #expect(server.storage.stores.log.headPosition == after, "the same preferences again record nothing")
            #expect(try server.storage.queries.preferences(of: "1").holdings.map(\.ticker) == ["AAPL"])
        }
    }

    /// The contract checks a ticker's format only: an investor holding ARM (outside the S&P 500 list
    /// the articles are read against) was refused every preference with it.
    @Test func aWellFormedTickerOutsideTheListIsKeptAndTheFeedsServeIt() async throws {
        try await NewsLiveServer.run { server in
            let set = try await server.send(.put, "/v1/preferences", json: #"{"holdings":["AAPL","arm"]}"#)
            #expect(set.status == .ok && set.json["holdings_count"] as? Int == 2, "\(set.text)")
            #expect(try server.storage.queries.preferences(of: "1").holdings.map(\.ticker) == ["AAPL", "ARM"])
            let groups = try await server.send(.get, "/v1/feed/story-groups")
            #expect(groups.status == .ok && groups.json["user_holdings"] as? [String] == ["AAPL", "ARM"], "\(groups.text)")
            #expect(((groups.json["by_ticker"] as? [String: Any])?["ARM"] as? [Any])?.isEmpty == true)
            for uri in ["/v1/feed", "/v1/personalized-feed"] {
                #expect(try await server.send(.get, uri).status == .ok, "\(uri)")
            }
        }
    }

    @Test func theUserComesFromTheHeaderTheQueryOrTheDefault() async throws {
        try await NewsLiveServer.run { server in
            _ = try await server.send(.put, "/v1/preferences", user: "alice", json: #"{"holdings":["TSLA"]}"#)
            func holdings(_ uri: String, user: String?) async throws -> [String]? {
                try await server.send(.get, uri, user: user).json["user_holdings"] as? [String]
            }
            #expect(try await holdings("/v1/feed/story-groups", user: "alice") == ["TSLA"])
            #expect(try await holdings("/v1/feed/story-groups?user_id=alice", user: nil) == ["TSLA"])
            #expect(try await server.send(.get, "/v1/feed/story-groups", user: nil).json["user_id"] as? String == "1")
            let bad = try await server.send(.get, "/v1/feed", user: "no spaces allowed")
            #expect(bad.status == .badRequest && bad.isErrorShape && bad.json["error"] as? String == "User ID is required")
            let missing = try await server.send(.get, "/v1/nowhere")
            #expect(missing.status == .notFound && missing.isErrorShape)
            for method in [HTTPRequest.Method.delete, .options] {
                let refused = try await server.send(method, "/v1/feed")
                #expect(refused.status == .methodNotAllowed && refused.isErrorShape && refused.headers[.allow] == "GET", "\(method): \(refused.headers)")
            }
        }
    }

    /// The contract's default user is its development one: outside demo mode a request that names no
    /// user is refused as the contract writes it, and a write so refused records nothing.
    @Test func outsideDemoModeARequestMustNameItsUser() async throws {
        try await NewsLiveServer.run(demoMode: false) { server in
            let before = server.storage.stores.log.headPosition
            for (method, uri, body) in [(HTTPRequest.Method.get, "/v1/feed", nil), (.put, "/v1/preferences", #"{"holdings":["TSLA"]}"#)] {
                let reply = try await server.send(method, uri, user: nil, json: body)
                #expect(reply.status == .badRequest && reply.isErrorShape && reply.json["error"] as? String == "User ID is required", "\(uri): \(reply.text)")
            }
            #expect(server.storage.stores.log.headPosition == before)
            #expect(try await server.send(.get, "/v1/feed/story-groups?user_id=alice", user: nil).json["user_id"] as? String == "alice")
            #expect(try await server.send(.get, "/v1/feed/story-groups", user: "1").status == .ok)
        }
    }

    @Test func eachUserHasAHundredRequestsAMinuteAndEveryAnswerSaysHowMany() async throws {
        try await NewsLiveServer.run(requestsPerMinute: 5) { server in
            var remaining: [Int] = []
            for _ in 0..<5 {
                let sent = Int(Date().timeIntervalSince1970)
                let reply = try await server.send(.get, "/v1/brief/latest", user: "busy")
                #expect(reply.status == .ok)
                #expect(reply.headers[HTTPField.Name("X-RateLimit-Limit")!] == "5")
                #expect(Int(reply.headers[HTTPField.Name("X-RateLimit-Reset")!] ?? "") ?? 0 > sent)
                remaining.append(Int(reply.headers[HTTPField.Name("X-RateLimit-Remaining")!] ?? "") ?? -1)
            }
            let refused = try await server.send(.get, "/v1/brief/latest", user: "busy")
            if refused.status == .ok {
                // The minute turned over between the requests: a new window; not what is tested.
                return
            }
            #expect(remaining == [4, 3, 2, 1, 0])
            #expect(refused.status == .tooManyRequests)
            #expect(refused.json["error"] as? String == "Rate limit exceeded" && refused.isErrorShape)
            #expect(refused.headers[HTTPField.Name("X-RateLimit-Remaining")!] == "0")
            #expect(refused.headers[.retryAfter] != nil)
            #expect(try await server.send(.get, "/v1/brief/latest", user: "someone-else").status == .ok)
        }
    }

    /// Naming a new user on every request does not lift the limit: an address has ten users' worth.
    /// Unknown paths under /v1 are counted and carry the headers too.
    @Test func oneAddressCannotEscapeTheLimitByClaimingNewUsers() async throws {
        try await NewsLiveServer.run(requestsPerMinute: 2) { server in
            var statuses: [HTTPResponse.Status] = []
            for n in 0..<21 { statuses.append(try await server.send(.get, "/v1/brief/latest", user: "claimed-\(n)").status) }
            if statuses.last == .ok { return }  // the minute turned over: a new window, not what is tested
            #expect(statuses.prefix(20).allSatisfy { $0 == .ok }, "\(statuses)")
            #expect(statuses.last == .tooManyRequests)
            let unknown = try await server.send(.get, "/v1/nothing-here", user: "another")
            #expect(unknown.status == .notFound || unknown.status == .tooManyRequests)
            // Past the address's limit, the headers give that limit, and nothing remains of it.
            let limit = unknown.status == .tooManyRequests ? ("20", "0") : ("2", "1")
            #expect(unknown.isErrorShape && unknown.headers[HTTPField.Name("X-RateLimit-Limit")!] == limit.0, "\(unknown.headers)")
            #expect(unknown.headers[HTTPField.Name("X-RateLimit-Remaining")!] == limit.1, "\(unknown.headers)")
        }
    }

    /// A method a path does not take (405, from the router) and HEAD are counted like any answer
    /// under /v1, with its headers; paths outside /v1 are not, even when spelt with empty components.
    @Test func refusedMethodsAndHeadAreCountedToo() async throws {
        try await NewsLiveServer.run(requestsPerMinute: 3) { server in
            let answers = [
                try await server.send(.post, "/v1/feed", user: "probe"), try await server.send(.head, "//v1/feed", user: "probe"),
                try await server.send(.get, "/health", user: "probe"), try await server.send(.delete, "/v1/brief/latest", user: "probe"),
                try await server.send(.get, "/v1/feed", user: "probe"),
            ]
            let remaining = answers.map { $0.headers[HTTPField.Name("X-RateLimit-Remaining")!] }
            // The minute turned over during the run: a new window, not what is tested.
            if Set(answers.compactMap { $0.headers[HTTPField.Name("X-RateLimit-Reset")!] }).count > 1 { return }
            #expect(answers.map(\.status.code) == [405, 200, 200, 405, 429], "\(answers.map(\.status))")
            #expect(remaining == ["2", "1", nil, "0", "0"], "\(remaining)")
        }
    }

    /// A read-your-writes position the server never gave is refused under /v1 like any other answer
    /// there: in the contract's shape, counted, with the rate limit's headers.
    @Test func aPositionNeverGivenIsRefusedWithTheLimitsHeaders() async throws {
        try await NewsLiveServer.run(requestsPerMinute: 3) { server in
            let minimum = HTTPField.Name("X-Min-Position")!
            let answers = [
                try await server.send(.get, "/v1/feed", user: "probe", headers: [minimum: "999999999"]),
                try await server.send(.get, "/v1/feed", user: "probe", headers: [minimum: "soon"]),
            ]
            if Set(answers.compactMap { $0.headers[HTTPField.Name("X-RateLimit-Reset")!] }).count > 1 { return }  // the minute turned over
            #expect(answers.allSatisfy { $0.status == .badRequest && $0.isErrorShape }, "\(answers.map(\.text))")
            #expect(answers.map { $0.headers[HTTPField.Name("X-RateLimit-Remaining")!] } == ["2", "1"])
        }
    }

    /// An id that is no valid user is refused 400 with the headers of every answer, counted against
    /// the address (whose limit they give), so that a client cannot send invalid ids without limit.
    @Test func aRequestNamingNoValidUserCountsAgainstItsAddress() async throws {
        try await NewsLiveServer.run(requestsPerMinute: 1) { server in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<11 {
                let reply = try await server.send(.get, "/v1/brief/latest", user: "no spaces allowed")
                #expect(reply.isErrorShape && reply.headers[HTTPField.Name("X-RateLimit-Limit")!] == "10", "\(reply.headers)")
                statuses.append(reply.status)
            }
            if statuses.last == .badRequest { return }  // the minute turned over: a new window, not what is tested
            #expect(statuses.prefix(10).allSatisfy { $0 == .badRequest }, "\(statuses)")
            #expect(statuses.last == .tooManyRequests)
        }
    }
}
