import Foundation
import HTTPTypes
import NewsDomain
import NewsProjections
import Testing

/// `/v1/feed/story-groups`: a day's GLOBAL and TICKER groups, merged by impact, with real counts.
@Suite struct StoryGroupsTests {
    @Test func aDaysGroupsAreSplitByScopeMergedByImpactAndCountedForReal() async throws {
        try await NewsLiveServer.run { server in
            _ = try await server.send(.put, "/v1/preferences", json: #"{"holdings":["NVDA","AAPL","MSFT"]}"#)
            var found = false
            for day in 3...31 {
                let date = String(format: "2025-12-%02d", day)
                let reply = try await server.send(.get, "/v1/feed/story-groups?date=\(date)&limit_global=5&limit_per_ticker=3")
                #expect(reply.status == .ok)
                let json = reply.json
                #expect(Set(json.keys) == ["date", "user_id", "user_holdings", "generated_at", "global", "by_ticker", "merged_feed", "metadata"])
                #expect(json["date"] as? String == date && json["user_id"] as? String == "1")
                #expect(json["user_holdings"] as? [String] == ["NVDA", "AAPL", "MSFT"])
                let byTicker = json["by_ticker"] as? [String: [[String: Any]]] ?? [:]
                #expect(Set(byTicker.keys) == ["NVDA", "AAPL", "MSFT"])
                let global = json["global"] as? [[String: Any]] ?? []
                for group in global + byTicker.values.flatMap({ $0 }) {
                    #expect(Set(group.keys) == ["id", "group_title", "impact_level", "scope", "primary_ticker", "article_count", "created_at"])
                    #expect(["High", "Moderate", "Low", "Very Low"].contains(group["impact_level"] as? String))
                    #expect(FeedTests.isTime(group["created_at"]))
                }
                #expect(global.allSatisfy { $0["scope"] as? String == "GLOBAL" && $0["primary_ticker"] is NSNull })
                for (ticker, groups) in byTicker {
                    #expect(groups.allSatisfy { $0["scope"] as? String == "TICKER" && $0["primary_ticker"] as? String == ticker })
                }
                let merged = json["merged_feed"] as? [[String: Any]] ?? []
                let rank = ["High": 0, "Moderate": 1, "Low": 2, "Very Low": 3]
                let ranks = merged.compactMap { rank[$0["impact_level"] as? String ?? ""] }
                #expect(ranks == ranks.sorted())
                #expect(merged.allSatisfy { item in
                    let reason = item["rank_reason"] as? String ?? ""
                    return reason == "Global impact" ? item["scope"] as? String == "GLOBAL" : reason == "User holds \(item["primary_ticker"] as? String ?? "?")"
                })
                #expect(merged.count == Set(merged.compactMap { $0["id"] as? Int }).count)

                let day = try server.storage.queries.day(startingAt: try Self.start(date))
                let metadata = json["metadata"] as? [String: Any] ?? [:]
                #expect(metadata["total_groups"] as? Int == day.groups.count)
                #expect(metadata["total_articles_clustered"] as? Int == day.articles)
                #expect(metadata["dedup_removed"] as? Int == day.duplicates)
                for group in global {
                    let members = try server.storage.queries.articles(inGroup: Int64(group["id"] as? Int ?? 0))
                    #expect(group["article_count"] as? Int == members.count)
                }
                if !global.isEmpty, !byTicker.values.allSatisfy(\.isEmpty) { found = true }
            }
            #expect(found, "some day has both global and ticker groups")
            #expect(try await server.send(.get, "/v1/feed/story-groups?date=2025-02-30").status == .badRequest)
            // Dates at and past the calendar's edges: a valid, empty day or a 400, never a trap.
            for (date, status) in [("0000-01-01", HTTPResponse.Status.ok), ("1000-01-01", .ok), ("9999-12-31", .ok), ("-001-01-01", .badRequest), ("+2025-1-01", .badRequest)] {
                let reply = try await server.send(.get, "/v1/feed/story-groups?date=\(date)")
                #expect(reply.status == status, "\(date)")
                if status == .ok { #expect(reply.json["date"] as? String == date) }
            }
            #expect(try await server.send(.get, "/v1/feed/story-groups?limit_global=-1").status == .badRequest)
        }
    }

    @Test func theDemoSetClustersCloseToItsTruth() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("news-eval-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let evaluation = try await ClusterEvaluation.run(seed: SyntheticNews.defaultSeed, noise: 0, in: directory)
        #expect(evaluation.f1 >= 0.9, "\(evaluation)")
        #expect(evaluation.duplicatePrecision >= 0.9 && evaluation.duplicateRecall >= 0.9, "\(evaluation)")
    }

    /// Sixty events a day, as dense as the synthetic year: a company's daily news would chain into one
    /// story for as long as it kept coming, without the bound on a story's span.
    @Test func aStorySpansAtMostTwoDaysHoweverDenseTheNews() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("news-eval-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let evaluation = try await ClusterEvaluation.run(seed: 7, noise: 0, stories: 600, days: 10, in: directory)
        #expect(evaluation.longestGroupSpan <= 2 * 86_400, "\(evaluation)")
        #expect(evaluation.groups >= 150, "\(evaluation)")
    }

    static func start(_ date: String) throws -> Int64 {
        let formatter = ISO8601DateFormatter()
        return Int64(try #require(formatter.date(from: date + "T00:00:00Z")).timeIntervalSince1970)
    }
}

import NewsApp
