import Foundation
import NewsDomain
import NewsCommands
import NewsProjections
import ReadModels
import Testing

/// `/v1/feed`, `/v1/personalized-feed` and `/v1/brief/latest`: the contract's shapes and value sets,
/// real paging, and every `why` line true of the stored data.
@Suite struct FeedTests {
    static func isTime(_ value: Any?) -> Bool {
        (value as? String)?.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/#) != nil
    }

    /// Every field of `Signal` with its type and value set.
    static func expectSignal(_ item: [String: Any]) {
        #expect(Set(item.keys) == ["id", "url", "title", "source", "published_at", "verdict", "why", "action", "horizon", "opportunity_type", "opportunity_note", "confidence", "importance_score"])
        #expect(item["id"] as? String == item["url"] as? String)
        #expect(isTime(item["published_at"]))
        #expect(["aware", "ignore"].contains(item["verdict"] as? String))
        #expect((item["why"] as? [String]).map { (1...3).contains($0.count) } == true)
        #expect(item["horizon"] is NSNull || ["short", "medium", "long"].contains(item["horizon"] as? String))
        #expect(["none", "positive", "negative"].contains(item["opportunity_type"] as? String))
        #expect(item["opportunity_note"] is String && item["action"] is String)
        #expect((item["confidence"] as? Int).map { (0...100).contains($0) } == true)
        #expect((item["importance_score"] as? Int).map { (0...100).contains($0) } == true)
    }

    /// Feed pages are remembered while the read models hold still; an article folded since is in
    /// the next answer.
    @Test func aRememberedFeedFollowsAnArticleIngestedSince() async throws {
        try await NewsLiveServer.run { server in
            let before = try await server.send(.get, "/v1/feed?limit=100")
            #expect(before.status == .ok)
            let clock = try #require(try server.storage.queries.recent(within: 0).clock)
            let article = try NewsRules.article(ArticleIngested(
                url: "https://wire.example/apple-acquisition", title: "Apple announces $50 billion acquisition of a chipmaker, shares surge 20%",
                source: "Wire (synthetic)", publishedAt: clock + 60, description: "Apple agreed to buy the company in its largest deal.", body: nil, feed: "test"
            ))
            guard case .recorded(let position) = try #require(try await server.storage.commands.ingest([article]).first) else {
                Issue.record("not recorded")
                return
            }
            try await ReadYourWrites(runner: server.storage.runner, timeout: .seconds(30)).wait(for: position)
            let after = try await server.send(.get, "/v1/feed?limit=100")
            #expect(!before.items.contains { $0["url"] as? String == article.url })
            #expect(after.items.contains { $0["url"] as? String == article.url })
        }
    }

    @Test func theFeedIsRankedSignalsEachTrueOfTheStoredData() async throws {
        try await NewsLiveServer.run { server in
            _ = try await server.send(.put, "/v1/preferences", json: #"{"focus_profile":"balanced","holdings":["NVDA","AAPL"]}"#)
            let reply = try await server.send(.get, "/v1/feed?limit=20")
            #expect(reply.status == .ok)
            // The general feed ranks the last week: as many items as it has story groups, up to the limit.
            #expect((10...20).contains(reply.items.count))
            #expect((reply.json["next_cursor"] is NSNull) == (reply.items.count < 20))
            reply.items.forEach(Self.expectSignal)
            let scores = reply.items.compactMap { $0["importance_score"] as? Int }
            #expect(scores == scores.sorted(by: >))
            try WhyCheck(storage: server.storage, holdings: ["NVDA", "AAPL"]).verify(reply.items)
        }
    }

    @Test func pagesFollowTheCursorWithoutRepeatsAndIgnoreArticlesIngestedMeanwhile() async throws {
        try await NewsLiveServer.run { server in
            let whole = try await server.send(.get, "/v1/feed?limit=100").items.compactMap { $0["id"] as? String }
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let reply = try await server.send(.get, "/v1/feed?limit=7" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(reply.status == .ok)
                seen += reply.items.compactMap { $0["id"] as? String }
                cursor = reply.json["next_cursor"] as? String
                pages += 1
                if pages == 1 {
                    _ = try await server.storage.commands.ingest([ArticleIngested(
                        url: "https://late.example/breaking", title: "Nvidia beats estimates again", source: "Late Wire (synthetic)",
                        publishedAt: (try server.storage.queries.recent(within: 0).clock ?? 0) + 2 * 86_400, description: "Revenue rose.", body: nil, feed: "test"
                    )])
                    try server.storage.runner.catchUp()
                }
            } while cursor != nil && pages < 50
            #expect(pages > 2)
            // The late article moved the data's clock and joined a story: the pinned walk ranks as before it.
            #expect(seen == whole, "the pages walked are the feed as it stood at the first page")
            #expect(Set(seen).count == seen.count, "a page repeated an item")
            #expect(!seen.contains("https://late.example/breaking"), "a pinned walk does not see what came after its first page")
            #expect(try await server.send(.get, "/v1/feed?limit=100").items.contains { $0["id"] as? String == "https://late.example/breaking" })
            let head = try server.storage.queries.lastPosition()
            for limit in ["0", "101", "abc", "%2B5", "1.5"] {
                #expect(try await server.send(.get, "/v1/feed?limit=\(limit)").status == .badRequest, "limit=\(limit)")
            }
            for cursor in ["nonsense", "5.-1", "-1.\(head)", "5.\(head + 1)", "5", "5..\(head)", "5.\(head).", ".\(head)", "%2B5.\(head)", "5.%2B\(head)"] {
                #expect(try await server.send(.get, "/v1/feed?cursor=\(cursor)").status == .badRequest, "\(cursor)")
            }
        }
    }

    /// A walk ranks every page by the preferences of its first: a change between pages repeated
    /// three items and skipped three. Preferences set after the newest article (as every one here
    /// is) count from the first page on.
    @Test func pagesRankByThePreferencesOfTheFirstPage() async throws {
        try await NewsLiveServer.run { server in
            for feed in ["/v1/feed", "/v1/personalized-feed"] {
                _ = try await server.send(.put, "/v1/preferences", user: "walker", json: #"{"focus_profile":"focused","holdings":["AAPL","MSFT"]}"#)
                let whole = try await server.send(.get, "\(feed)?limit=100", user: "walker").items.compactMap { $0["id"] as? String }
                var seen: [String] = []
                var cursor: String?
                repeat {
                    let reply = try await server.send(.get, "\(feed)?limit=5" + (cursor.map { "&cursor=\($0)" } ?? ""), user: "walker")
                    seen += reply.items.compactMap { $0["id"] as? String }
                    cursor = reply.json["next_cursor"] as? String
                    if seen.count == 5 {
                        let changed = try await server.send(.put, "/v1/preferences", user: "walker", json: #"{"focus_profile":"broad","holdings":["NVDA"]}"#)
                        #expect(changed.status == .ok)
                    }
                } while cursor != nil && seen.count < 200
                #expect(whole.count > 5)
                #expect(seen == whole, "\(feed): the pages walked are the feed as the first page ranked it")
            }
        }
    }

    @Test func preferencesChangeThePersonalizedFeed() async throws {
        try await NewsLiveServer.run { server in
            let before = try await server.send(.get, "/v1/personalized-feed?limit=10", user: "u2")
            #expect(before.items.allSatisfy { $0["profileTier"] as? String != "high" }, "no holdings: nothing is about a holding")
            let set = try await server.send(.put, "/v1/preferences", user: "u2", json: #"{"focus_profile":"focused","holdings":["AAPL",{"ticker":"msft","label":"Core","notes":null}]}"#)
            #expect(set.status == .ok)
            #expect(NSDictionary(dictionary: set.json) == NSDictionary(dictionary: ["success": true, "focus_profile": "focused", "holdings_count": 2]))
            let after = try await server.send(.get, "/v1/personalized-feed?limit=10", user: "u2")
            #expect(after.status == .ok && after.items.count == 10)
            for item in after.items {
                #expect(Set(item.keys) == ["id", "title", "shortSummary", "tickerSummary", "impactLevel", "scopeType", "opportunitySignal", "relevanceType", "profileTier", "rawArticles", "explanation"])
                #expect(["high", "medium", "low"].contains(item["impactLevel"] as? String))
                #expect(["company", "industry", "macro"].contains(item["scopeType"] as? String))
                #expect(["positive", "negative", "neutral"].contains(item["opportunitySignal"] as? String))
                #expect(ArticleReading.EventType(rawValue: item["relevanceType"] as? String ?? "") != nil)
                #expect(["high", "medium", "low"].contains(item["profileTier"] as? String))
                let raw = item["rawArticles"] as? [[String: Any]] ?? []
                #expect(!raw.isEmpty && raw.enumerated().allSatisfy { $0.element["articleNumber"] as? Int == $0.offset + 1 })
                #expect(raw.first?["url"] as? String == item["id"] as? String, "the item's own article first, as the contract's example")
                let explanation = item["explanation"] as? [String: Any] ?? [:]
                #expect((explanation["confidence"] as? Double).map { (0...1).contains($0) } == true)
            }
            let holdingItems = after.items.filter { item in
                let tickers = (item["tickerSummary"] as? String ?? "").components(separatedBy: ", ")
                return tickers.contains("AAPL") || tickers.contains("MSFT")
            }
            #expect(holdingItems.count >= 5, "about 70 % of the feed is about the holdings: \(holdingItems.count) of 10")
            #expect(holdingItems.allSatisfy { $0["profileTier"] as? String == "high" })
            #expect(after.items.first.map { ($0["tickerSummary"] as? String ?? "").contains("AAPL") || ($0["tickerSummary"] as? String ?? "").contains("MSFT") } == true)
            let groups = after.items.map { $0["rawArticles"] as? [[String: Any]] ?? [] }.map { Set($0.compactMap { $0["url"] as? String }) }
            #expect(zip(groups, groups.dropFirst()).allSatisfy { $0.isDisjoint(with: $1) } , "one item per story group")
        }
    }

    @Test func theBriefIsTheNewestDaysTopSignals() async throws {
        try await NewsLiveServer.run { server in
            let brief = try await server.send(.get, "/v1/brief/latest")
            #expect(brief.status == .ok)
            #expect(Self.isTime(brief.json["generated_at"]))
            #expect((1...5).contains(brief.items.count))
            brief.items.forEach(Self.expectSignal)
        }
    }

    @Test func anEmptyServerAnswersEmptyFeeds() async throws {
        try await NewsLiveServer.run(storage: try await NewsStorage(demo: false)) { server in
            let feed = try await server.send(.get, "/v1/feed")
            #expect(feed.status == .ok && feed.items.isEmpty && feed.json["next_cursor"] is NSNull)
            let brief = try await server.send(.get, "/v1/brief/latest")
            #expect(brief.json["generated_at"] is NSNull && brief.items.isEmpty)
        }
    }
}

/// Recomputes every kind of `why` line from the stored articles and fails on any that is not so.
struct WhyCheck {
    let storage: NewsStorage
    let holdings: Set<String>

    func verify(_ items: [[String: Any]]) throws {
        let queries = storage.queries
        let clock = try #require(try queries.recent(within: 0).clock)
        let articles = Dictionary(uniqueKeysWithValues: try queries.recent(within: 100 * 365 * 86_400).articles.map { ($0.url, $0) })
        for item in items {
            let article = try #require(articles[item["url"] as? String ?? ""])
            let text = [article.title, article.description, article.body ?? ""].joined(separator: "\n")
            #expect(ArticleReading.of(title: article.title, description: article.description, body: article.body) == article.reading)
            for line in item["why"] as? [String] ?? [] {
                if let match = line.wholeMatch(of: #/Mentions .* \((\w+)\)(, which you hold)?/#) {
                    let symbol = String(match.1)
                    #expect(article.reading.tickers.contains(symbol), "\(line): \(article.title)")
                    #expect((match.2 != nil) == holdings.contains(symbol), "\(line)")
                } else if let match = line.wholeMatch(of: #/(\d+) outlets cover this story/#) {
                    let outlets = Set(try queries.articles(inGroup: article.groupId).map(\.source))
                    #expect(outlets.count == Int(match.1), "\(line): \(outlets)")
                } else if let match = line.wholeMatch(of: #/.* news: the text says “(.+)”/#) {
                    #expect(text.lowercased().contains(String(match.1)), "\(line): \(text)")
                } else if let match = line.wholeMatch(of: #/Published (\d+) hours? before the newest article/#) {
                    #expect(Int((clock - article.publishedAt) / 3600) == Int(match.1), "\(line)")
                } else {
                    #expect(line == "Among the newest articles" && clock - article.publishedAt < 3600 || line == "Mentions no known ticker and no market-moving event", "unknown why line: \(line)")
                }
            }
        }
    }
}
