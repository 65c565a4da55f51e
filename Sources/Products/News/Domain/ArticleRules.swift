import EventSourcing

/// What an article must be to be ingested, and a user's preferences to be recorded.
public enum NewsRules {
    public enum Refusal: DecisionRefusal, Equatable, Sendable, CustomStringConvertible {
        case invalid(field: String, reason: String)
        case invalidTicker(String)

        public var description: String {
            switch self {
            case .invalid(let field, let reason): "\(field) \(reason)"
            case .invalidTicker(let ticker): "Invalid ticker format. Use 1-5 letters/numbers (e.g., AAPL, NVDA): \(ticker)"
            }
        }
    }

    /// The article with its URL canonical and its text trimmed, or why not.
    /// 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z: what a timestamp can say, and far from overflow
    /// when a window is added to it.
    static let writableSeconds: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    public static func article(_ raw: ArticleIngested) throws(Refusal) -> ArticleIngested {
        guard let url = CanonicalURL.of(raw.url), url.utf8.count <= 2048 else { throw .invalid(field: "url", reason: "must be an http(s) URL") }
        var article = raw
        article.url = url
        article.title = raw.title.trimmingCharacters(in: .whitespacesAndNewlines)
        article.source = raw.source.trimmingCharacters(in: .whitespacesAndNewlines)
        article.description = raw.description.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...500).contains(article.title.count) else { throw .invalid(field: "title", reason: "must be 1–500 characters") }
        guard (1...200).contains(article.source.count) else { throw .invalid(field: "source", reason: "must be 1–200 characters") }
        guard article.description.count <= 5_000 else { throw .invalid(field: "description", reason: "must be at most 5,000 characters") }
        guard (article.body?.count ?? 0) <= 100_000 else { throw .invalid(field: "body", reason: "must be at most 100,000 characters") }
        guard writableSeconds.contains(article.publishedAt) else { throw .invalid(field: "published_at", reason: "must be within years 0000–9999") }
        for (field, text) in [("title", article.title), ("source", article.source), ("description", article.description), ("body", article.body ?? "")] {
            if let bad = StorableText.firstRefusedCharacter(in: text) {
                throw .invalid(field: field, reason: "contains the control character \(bad); only tab, line feed and carriage return are accepted")
            }
        }
        return article
    }

    /// Holdings upper-cased, each a well-formed ticker, at most 100, the first of any repeated ticker
    /// kept. One outside the S&P 500 list this server reads articles for (ARM, TSM) is kept too: the
    /// contract checks only the format, and it matches no article until the list names it.
    public static func holdings(_ raw: [Holding]) throws(Refusal) -> [Holding] {
        guard raw.count <= 100 else { throw .invalid(field: "holdings", reason: "must hold at most 100 tickers") }
        var seen: Set<String> = []
        var holdings: [Holding] = []
        for holding in raw {
            let ticker = holding.ticker.trimmingCharacters(in: .whitespaces).uppercased()
            guard TickerList.isWellFormed(ticker) else { throw .invalidTicker(holding.ticker) }
            guard (holding.label?.count ?? 0) <= 200, (holding.notes?.count ?? 0) <= 1_000 else {
                throw .invalid(field: "holdings", reason: "labels are at most 200 characters and notes 1,000")
            }
            if let bad = [holding.label, holding.notes].compactMap({ $0 }).lazy.compactMap(StorableText.firstRefusedCharacter).first {
                throw .invalid(field: "holdings", reason: "a label or note contains the control character \(bad); only tab, line feed and carriage return are accepted")
            }
            if seen.insert(ticker).inserted { holdings.append(Holding(ticker: ticker, label: holding.label, notes: holding.notes)) }
        }
        return holdings
    }
}

import Foundation
