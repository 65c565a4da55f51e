import Foundation
import HTTPServing
import Hummingbird
import NewsDomain
import NewsProjections
import ProductHosting
import ReadModels

/// `/v1/feed`, `/v1/personalized-feed`, `/v1/brief/latest`: signals for the request's user.
struct FeedController: Sendable {
    let reads: CurrentReads
    let memo: RememberedAnswers
    let readYourWrites: ReadYourWrites
    var queries: NewsQueries { reads.queries }
    var ranking: Ranking { Ranking(queries: queries) }

    /// One article per story group, its best-scoring.
    func feed(_ request: Request, context: NewsRequestContext) async throws -> Response {
        let limit = try Query.integer(request, "limit", default: 20, in: 1...100)
        let cursor = Query.text(request, "cursor")
        try await holdingThePageOf(cursor)
        let preferences = try reads.preferences(of: context.userId)
        return try memo.response("feed|\(Self.rankedBy(preferences, cursor: cursor, user: context.userId))|\(limit)|\(cursor ?? "")", revision: reads.revision) {
            let page = try ranking.page({ pinned in
                let ranked = try ranking.ranked(for: try asRanked(preferences, of: context.userId, pinned: pinned), through: pinned == .max ? nil : pinned)
                return (Self.onePerGroup(ranked.articles), ranked.through)
            }, cursor: cursor, limit: limit)
            return FeedJSON(items: page.items.map(Self.signal), next_cursor: page.nextCursor)
        }
    }

    /// Holdings news (70 %) and macro context (30 %) of the last 30 days, one item per story group,
    /// each side filling what the other lacks; without holdings, all context.
    func personalized(_ request: Request, context: NewsRequestContext) async throws -> Response {
        let limit = try Query.integer(request, "limit", default: 50, in: 1...100)
        let cursor = Query.text(request, "cursor")
        try await holdingThePageOf(cursor)
        let preferences = try reads.preferences(of: context.userId)
        return try memo.response("personalized|\(Self.rankedBy(preferences, cursor: cursor, user: context.userId))|\(limit)|\(cursor ?? "")", revision: reads.revision) {
            try personalizedPage(preferences, of: context.userId, limit: limit, cursor: cursor)
        }
    }

    /// Once this node holds what the first page of `cursor` was ranked through: on a node of a shared
    /// log, a page asked of another node than the one before (it failed, or was taken out) may be a
    /// moment ahead of this one. A cursor it never gave out is refused by `Ranking.page`.
    private func holdingThePageOf(_ cursor: String?) async throws {
        guard let position = cursor.flatMap(Ranking.parts)?.position else { return }
        try await readYourWrites.catchUp(unless: { position <= (try queries.lastPosition()) })
    }

    /// What a remembered page is kept by: a first page by the preferences it ranks by, shared by every
    /// user who has them; a later page by its user, whose preferences as of the cursor it ranks by.
    private static func rankedBy(_ current: StoredPreferences, cursor: String?, user: String) -> String {
        cursor == nil ? current.rankingKey : "user:\(user)"
    }

    /// A later page ranks by what its first page was ranked by: the preferences as of its cursor's
    /// position, so that a change between pages neither repeats nor skips an item.
    private func asRanked(_ current: StoredPreferences, of userId: String, pinned: Int64) throws -> StoredPreferences {
        pinned == .max ? current : try queries.preferences(of: userId, asOf: pinned)
    }

    private func personalizedPage(_ current: StoredPreferences, of userId: String, limit: Int, cursor: String?) throws -> PersonalizedFeedJSON {
        let ranking = Ranking(queries: queries, window: 30 * 86_400)
        var holdings: Set<String> = []
        let page = try ranking.page({ pinned in
            let preferences = try asRanked(current, of: userId, pinned: pinned)
            holdings = Set(preferences.holdings.map(\.ticker))
            let (ranked, through, _) = try ranking.ranked(for: preferences, through: pinned == .max ? nil : pinned)
            let perGroup = Self.onePerGroup(ranked)
            let holdingNews = perGroup.filter { !Set($0.article.reading.tickers).isDisjoint(with: holdings) }
            let context = perGroup.filter { Set($0.article.reading.tickers).isDisjoint(with: holdings) }
            return (Self.mix(holdingNews, context, holdingsShare: holdings.isEmpty ? 0 : 0.7), through)
        }, cursor: cursor, limit: limit)
        return PersonalizedFeedJSON(
            items: try page.items.map { PersonalizedSignalJSON($0, group: try queries.articles(inGroup: $0.article.groupId), holdings: holdings) },
            next_cursor: page.nextCursor
        )
    }

    /// The top five signals of the newest day of news.
    func brief(_ request: Request, context: NewsRequestContext) async throws -> BriefJSON {
        let preferences = try reads.preferences(of: context.userId)
        let (ranked, _, clock) = try ranking.ranked(for: preferences, through: nil)
        guard let clock else { return BriefJSON(items: [], generated_at: nil) }
        let lastDay = Self.onePerGroup(ranked).filter { $0.article.publishedAt > clock - 86_400 }.prefix(5)
        return BriefJSON(items: lastDay.map(Self.signal), generated_at: NewsTime.format(Int64(Date().timeIntervalSince1970)))
    }

    /// In every run of ten, seven of `first` and three of `second` (by `holdingsShare`), in their
    /// own orders; when one runs out, the other goes on.
    static func mix(_ first: [ScoredArticle], _ second: [ScoredArticle], holdingsShare: Double) -> [ScoredArticle] {
        var (i, j, mixed) = (0, 0, [ScoredArticle]())
        while i < first.count || j < second.count {
            let firstsTurn = Double(i) < holdingsShare * Double(mixed.count + 1)
            if i < first.count, firstsTurn || j >= second.count {
                mixed.append(first[i])
                i += 1
            } else {
                mixed.append(second[j])
                j += 1
            }
        }
        return mixed
    }

    static func onePerGroup(_ ranked: [ScoredArticle]) -> [ScoredArticle] {
        var seen: Set<Int64> = []
        return ranked.filter { seen.insert($0.article.groupId).inserted }
    }

    static func signal(_ scored: ScoredArticle) -> SignalJSON {
        SignalJSON(url: scored.article.url, title: scored.article.title, source: scored.article.source, publishedAt: scored.article.publishedAt, score: scored.score)
    }
}

/// Query parameters, each checked.
enum Query {
    static func text(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters[Substring(name)].map(String.init)
    }

    static func integer(_ request: Request, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let number = request.queryInteger(name, default: value, in: range) else {
            throw NewsAPIError.badRequest("Invalid \(name)", "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
