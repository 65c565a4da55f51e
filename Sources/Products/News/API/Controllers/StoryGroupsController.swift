import Foundation
import HTTPServing
import HTTPTypes
import Hummingbird
import NewsDomain
import NewsProjections
import ProductHosting

/// `/v1/feed/story-groups`: the day's GLOBAL groups, each holding's TICKER groups, both merged and
/// ranked by impact, with the day's real counts.
struct StoryGroupsController: Sendable {
    let reads: CurrentReads
    let memo: RememberedAnswers
    var queries: NewsQueries { reads.queries }
    static let cacheSeconds = 60

    /// Kept per user, day and limits while the read models stand: `generated_at` says when it was made.
    func storyGroups(_ request: Request, context: NewsRequestContext) async throws -> Response {
        let limitGlobal = try Query.integer(request, "limit_global", default: 5, in: 0...50)
        let limitPerTicker = try Query.integer(request, "limit_per_ticker", default: 3, in: 0...20)
        let now = Int64(Date().timeIntervalSince1970)
        let start = try Query.text(request, "date").map(Self.dayStart) ?? now - now % 86_400
        return try memo.response(
            "groups|\(context.userId)|\(start)|\(limitGlobal)|\(limitPerTicker)", revision: reads.revision,
            headers: [.cacheControl: "private, max-age=\(Self.cacheSeconds)"]
        ) {
            try groups(of: context.userId, dayStart: start, limitGlobal: limitGlobal, limitPerTicker: limitPerTicker, now: now)
        }
    }

    private func groups(of userId: String, dayStart start: Int64, limitGlobal: Int, limitPerTicker: Int, now: Int64) throws -> StoryGroupsJSON {
        let day = try queries.day(startingAt: start)
        let holdings = try reads.preferences(of: userId).holdings.map(\.ticker)
        let ranked = day.groups.sorted(by: Self.byImpact)
        let global = Array(ranked.filter { $0.scope == "GLOBAL" }.prefix(limitGlobal))
        var byTicker: [String: [StoredGroup]] = [:]
        for ticker in holdings { byTicker[ticker] = Array(ranked.filter { $0.primaryTicker == ticker }.prefix(limitPerTicker)) }
        var seen: Set<Int64> = []
        let merged = (global.map { ($0, "Global impact") } + holdings.flatMap { ticker in (byTicker[ticker] ?? []).map { ($0, "User holds \(ticker)") } })
            .filter { seen.insert($0.0.groupId).inserted }
            .sorted { Self.byImpact($0.0, $1.0) }
        return StoryGroupsJSON(
            date: NewsTime.format(start).prefix(10).description, user_id: userId, user_holdings: holdings, generated_at: NewsTime.format(now),
            global: global.map(StoryGroupJSON.init), by_ticker: byTicker.mapValues { $0.map(StoryGroupJSON.init) },
            merged_feed: merged.map(MergedGroupJSON.init),
            metadata: .init(total_groups: day.groups.count, total_articles_clustered: day.articles, dedup_removed: day.duplicates, cache_ttl_seconds: Self.cacheSeconds)
        )
    }

    static let impactRank = ["High": 0, "Moderate": 1, "Low": 2, "Very Low": 3]

    /// Impact, then more articles, then the older group.
    static func byImpact(_ a: StoredGroup, _ b: StoredGroup) -> Bool {
        (impactRank[a.impactLevel] ?? 4, -a.articleCount, a.groupId) < (impactRank[b.impactLevel] ?? 4, -b.articleCount, b.groupId)
    }

    /// `YYYY-MM-DD` as the epoch second its UTC day starts.
    static func dayStart(_ text: String) throws -> Int64 {
        guard let start = UTCTimestamp.dayStart(text) else {
            throw NewsAPIError.badRequest("Invalid date", "date must be YYYY-MM-DD, such as 2026-01-02")
        }
        return start
    }
}
