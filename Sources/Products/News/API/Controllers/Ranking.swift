import NewsDomain
import NewsProjections

struct ScoredArticle: Sendable {
    var article: StoredArticle
    var score: SignalScore
}

/// Scores the recent articles (a window back from the data's clock) for one user's preferences, and pages
/// through the ranking: highest importance first, then the newest. A cursor pins the log position
/// of its first page, and with it the clock and each story's outlets the ranking used, so articles
/// ingested meanwhile do not shift the later pages.
struct Ranking: Sendable {
    let queries: NewsQueries
    /// The general feed's window: a week.
    var window: Int64 = 7 * 86_400

    struct Page {
        var items: [ScoredArticle]
        var nextCursor: String?
    }

    /// The window's articles by importance, the position they were read through, and the data's
    /// clock they were aged against (nil when there are no articles).
    func ranked(for preferences: StoredPreferences, through pinned: Int64?) throws -> (articles: [ScoredArticle], through: Int64, clock: Int64?) {
        let (articles, through, clock) = try queries.recent(within: window, through: pinned)
        guard let clock else { return ([], through, nil) }
        let holdings = Set(preferences.holdings.map(\.ticker))
        let scored = articles.map { article in
            ScoredArticle(article: article, score: SignalScore(SignalScore.Inputs(
                reading: article.reading, outlets: article.outlets, ageHours: Int((clock - article.publishedAt) / 3600),
                holdings: holdings, focus: preferences.focusProfile
            )))
        }.sorted { a, b in
            (a.score.importance, a.article.publishedAt, a.article.position) > (b.score.importance, b.article.publishedAt, b.article.position)
        }
        return (scored, through, clock)
    }

    /// A cursor's offset and the position its first page was ranked through; nil for anything
    /// `next_cursor` does not write. Digits only: `Int` alone would take "+1", and `split` "1..2".
    static func parts(of cursor: String) -> (offset: Int, position: Int64)? {
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let offset = Int(parts[0]), let position = Int64(parts[1]) else { return nil }
        return (offset, position)
    }

    /// `limit` items from `cursor` (`<offset>.<position>`) on.
    func page(_ items: (Int64) throws -> ([ScoredArticle], Int64), cursor: String?, limit: Int) throws -> Page {
        var offset = 0
        var pinned: Int64?
        if let cursor {
            guard let (start, position) = Self.parts(of: cursor), position <= (try queries.lastPosition()) else {
                throw NewsAPIError.badRequest("Invalid cursor", "Pass back the next_cursor of the previous page")
            }
            (offset, pinned) = (start, position)
        }
        let (all, through) = try items(pinned ?? .max)
        let slice = Array(all.dropFirst(offset).prefix(limit))
        let next = offset + slice.count < all.count ? "\(offset + slice.count).\(through)" : nil
        return Page(items: slice, nextCursor: next)
    }
}
