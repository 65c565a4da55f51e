import Foundation
import HTTPServing
import Hummingbird
import NewsDomain
import NewsProjections

/// The contract's instants: `2026-01-02T10:00:00Z`.
enum NewsTime {
    static func format(_ seconds: Int64) -> String {
        UTCTimestamp.format(seconds, unitsPerSecond: 1, suffix: "Z")
    }
}

/// `Signal`, every field as the contract types it.
struct SignalJSON: ResponseEncodable {
    let id: String
    let url: String
    let title: String
    let source: String
    let published_at: String
    let verdict: String
    let why: [String]
    let action: String
    @Nullable var horizon: String?
    let opportunity_type: String
    let opportunity_note: String
    let confidence: Int
    let importance_score: Int

    init(url: String, title: String, source: String, publishedAt: Int64, score: SignalScore) {
        id = url
        self.url = url
        self.title = title
        self.source = source
        published_at = NewsTime.format(publishedAt)
        verdict = score.verdict
        why = score.why
        action = score.action
        horizon = score.horizon
        opportunity_type = score.opportunityType
        opportunity_note = score.opportunityNote
        confidence = score.confidence
        importance_score = score.importance
    }
}

struct FeedJSON: ResponseEncodable {
    let items: [SignalJSON]
    @Nullable var next_cursor: String?
}

/// `PersonalizedSignal`: the same scorer's terms, in the words of a personal brief.
struct PersonalizedSignalJSON: Encodable {
    struct RawArticle: Encodable {
        let articleNumber: Int
        let source: String
        let title: String
        let description: String
        let body: String
        let url: String
    }

    struct Explanation: Encodable {
        let headline: String
        let impact: String
        let action: String
        let context: String
        let confidence: Double
    }

    let id: String
    let title: String
    let shortSummary: String
    let tickerSummary: String
    let impactLevel: String
    let scopeType: String
    let opportunitySignal: String
    let relevanceType: String
    let profileTier: String
    let rawArticles: [RawArticle]
    @Nullable var explanation: Explanation?

    init(_ scored: ScoredArticle, group: [StoredArticle], holdings: Set<String>) {
        let article = scored.article, score = scored.score, reading = article.reading
        let held = reading.tickers.filter(holdings.contains)
        id = article.url
        title = article.title
        shortSummary = Self.firstSentence(article.description.isEmpty ? article.title : article.description)
        tickerSummary = (held + reading.tickers.filter { !holdings.contains($0) }).joined(separator: ", ")
        impactLevel = score.importance >= 60 ? "high" : score.importance >= 30 ? "medium" : "low"
        scopeType = reading.tickers.isEmpty || [.rates, .macro].contains(reading.eventType) ? "macro" : reading.tickers.count > 2 ? "industry" : "company"
        opportunitySignal = reading.tone.rawValue
        relevanceType = reading.eventType.rawValue
        profileTier = !held.isEmpty ? "high" : !reading.tickers.isEmpty ? "medium" : "low"
        // The article itself first, then the rest of its story's, as the contract's example has it.
        rawArticles = ([article] + group.filter { $0.url != article.url }).prefix(5).enumerated().map { index, member in
            RawArticle(articleNumber: index + 1, source: member.source, title: member.title, description: member.description, body: member.body ?? "", url: member.url)
        }
        let eventLine = score.terms.first { if case .event = $0 { true } else { false } }.map(score.sentence)
        explanation = Explanation(
            headline: held.isEmpty ? "Market context" : "Why this matters to you",
            impact: held.isEmpty
                ? (reading.tickers.isEmpty ? "Touches none of your holdings" : "Concerns \(reading.tickers.joined(separator: ", ")), not among your holdings")
                : "Mentions your \(held.joined(separator: ", ")) holding\(held.count > 1 ? "s" : "")"
                    + (score.opportunityNote.isEmpty ? "" : "; \(score.opportunityNote.prefix(1).lowercased() + score.opportunityNote.dropFirst())"),
            action: score.action,
            context: ([article.outlets > 1 ? "\(article.outlets) outlets cover this story" : "One outlet reports this"] + (eventLine.map { [$0] } ?? [])).joined(separator: "; "),
            confidence: Double(score.confidence) / 100
        )
    }

    static func firstSentence(_ text: String) -> String {
        let sentence = text.split(separator: ". ", maxSplits: 1).first.map(String.init) ?? text
        return sentence.count <= 200 ? sentence : String(sentence.prefix(199)) + "…"
    }
}

struct PersonalizedFeedJSON: ResponseEncodable {
    let items: [PersonalizedSignalJSON]
    @Nullable var next_cursor: String?
}

struct PreferencesJSON: ResponseEncodable {
    let success: Bool
    let focus_profile: String
    let holdings_count: Int
}

struct StoryGroupJSON: Encodable {
    let id: Int64
    let group_title: String
    let impact_level: String
    let scope: String
    @Nullable var primary_ticker: String?
    let article_count: Int
    let created_at: String

    init(_ group: StoredGroup) {
        id = group.groupId
        group_title = group.title
        impact_level = group.impactLevel
        scope = group.scope
        primary_ticker = group.primaryTicker
        article_count = group.articleCount
        created_at = NewsTime.format(group.createdAt)
    }
}

/// A merged-feed entry: the group whole (so a client decoding `StoryGroup` finds every field) and
/// why it is there.
struct MergedGroupJSON: Encodable {
    let id: Int64
    let group_title: String
    let impact_level: String
    let rank_reason: String
    let scope: String
    @Nullable var primary_ticker: String?
    let article_count: Int
    let created_at: String

    init(_ group: StoredGroup, reason: String) {
        id = group.groupId
        group_title = group.title
        impact_level = group.impactLevel
        rank_reason = reason
        scope = group.scope
        primary_ticker = group.primaryTicker
        article_count = group.articleCount
        created_at = NewsTime.format(group.createdAt)
    }
}

struct StoryGroupsJSON: ResponseEncodable {
    struct Metadata: Encodable {
        let total_groups: Int
        let total_articles_clustered: Int
        let dedup_removed: Int
        let cache_ttl_seconds: Int
    }

    let date: String
    let user_id: String
    let user_holdings: [String]
    let generated_at: String
    let global: [StoryGroupJSON]
    let by_ticker: [String: [StoryGroupJSON]]
    let merged_feed: [MergedGroupJSON]
    let metadata: Metadata
}

struct BriefJSON: ResponseEncodable {
    let items: [SignalJSON]
    @Nullable var generated_at: String?
}
