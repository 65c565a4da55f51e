import Foundation

/// What an article's words say, read by rules that can be checked: the tickers it mentions, the kind
/// of event it reports (with the phrase that says so) and the tone of its wording (with the words).
public struct ArticleReading: Sendable, Equatable, Codable {
    public enum EventType: String, Sendable, Codable, CaseIterable {
        case earnings, guidance, merger, rates, macro, regulation, legal, product, leadership, general
    }

    public enum Tone: String, Sendable, Codable {
        case positive, negative, neutral
    }

    /// In the order first mentioned.
    public var tickers: [String]
    public var eventType: EventType
    /// The phrase that made it that kind of event; nil for `general`.
    public var eventEvidence: String?
    public var tone: Tone
    /// The words that set the tone, in the order found.
    public var toneEvidence: [String]

    public static func of(title: String, description: String, body: String?, tickers list: TickerList = .sp500) -> ArticleReading {
        let text = [title, description, body ?? ""].joined(separator: "\n")
        let lower = WordText(text, keeping: "&", lowercased: true)
        let (eventType, evidence) = event(in: lower)
        let positive = toneWords.positive.filter(lower.holds)
        let negative = toneWords.negative.filter(lower.holds)
        let tone: Tone = positive.count > negative.count ? .positive : negative.count > positive.count ? .negative : .neutral
        return ArticleReading(
            tickers: mentions(in: text, list: list), eventType: eventType, eventEvidence: evidence, tone: tone,
            toneEvidence: tone == .positive ? positive : tone == .negative ? negative : []
        )
    }

    /// The kind whose phrases the text holds most of (ties: the order of `EventType`).
    static func event(in lower: WordText) -> (EventType, String?) {
        var best: (EventType, String?, Int) = (.general, nil, 0)
        for type in EventType.allCases where type != .general {
            let found = (eventPhrases[type] ?? []).filter(lower.holds)
            if found.count > best.2 { best = (type, found.first, found.count) }
        }
        return (best.0, best.1)
    }

    /// `$AAPL`, `(AAPL)`, `NASDAQ: AAPL`, an upper-case symbol of three or more letters standing
    /// alone, or one of the company's searched names (`Apple`, `Coca-Cola`, `Disney`) as whole words.
    static func mentions(in text: String, list: TickerList) -> [String] {
        var found: [String] = []
        func add(_ symbol: String) { if list.company(symbol) != nil, !found.contains(symbol) { found.append(symbol) } }
        let words = WordText.isPlainASCII(text)
            ? text.utf8.split(whereSeparator: { (0x09...0x0D).contains($0) || $0 == 0x20 }).map { Substring($0) }
            : text.split(whereSeparator: { $0.isWhitespace })
        for (index, raw) in words.enumerated() {
            let word = trimmed(raw)
            if word.hasPrefix("$") { add(String(word.dropFirst())) }
            if word.hasPrefix("("), word.hasSuffix(")") { add(String(word.dropFirst().dropLast())) }
            if index > 0, exchanges.contains(String(words[index - 1])) { add(word) }
            if isSymbol(word), !notTickers.contains(word) { add(word) }
        }
        let padded = WordText(text, keeping: TickerList.nameCharacters, lowercased: false)
        // A name stands in `padded` only after a space and before one, so its first word (or, for
        // a one-word name, its plural) is one of the text's words: the scans below run only then.
        for index in Set(padded.words.flatMap { list.byNameHead[String($0)] ?? [] }).sorted() {
            if list.bySymbol[index].searchedNames.contains(where: { padded.holds($0) || padded.holds($0 + "s") }) { add(list.bySymbol[index].symbol) }
        }
        return found
    }

    /// Three or more upper-case letters or digits.
    static func isSymbol(_ word: String) -> Bool {
        guard word.utf8.allSatisfy({ $0 < 0x80 }) else { return word.count >= 3 && word.allSatisfy { $0.isUppercase || $0.isNumber } }
        return word.utf8.count >= 3 && word.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// `word` without the punctuation around it, scalar by scalar as `trimmingCharacters(in:)`
    /// trims, without Foundation's bridging.
    static func trimmed(_ word: Substring) -> String {
        guard let first = word.unicodeScalars.first, let last = word.unicodeScalars.last,
              wordPunctuation.contains(first) || wordPunctuation.contains(last) else { return String(word) }
        var scalars = word.unicodeScalars[...]
        while let first = scalars.first, wordPunctuation.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, wordPunctuation.contains(last) { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    private static let wordPunctuation: Set<Unicode.Scalar> = [".", ",", ";", ":", "!", "?", "\"", "'", "’"]
    private static let exchanges: Set<String> = ["NASDAQ:", "NYSE:"]
    static let notTickers: Set<String> = ["ALL", "NOW", "KEY", "ARE", "FOR", "CEO", "CFO", "GDP", "SEC", "FED", "USA", "IPO", "ETF", "EPS", "FTC", "DOJ", "THE", "AND", "NEW", "CPI", "FOMC"]

    static let eventPhrases: [EventType: [String]] = [
        .earnings: ["earnings", "quarterly results", "quarterly profit", "quarterly revenue", "revenue", "eps", "profit", "beat estimates", "missed estimates", "per share"],
        .guidance: ["guidance", "outlook", "forecast", "full year", "full-year", "raises its", "lowers its"],
        .merger: ["acquire", "acquires", "acquisition", "merger", "takeover", "buyout", "deal to buy", "to buy", "bid for"],
        .rates: ["interest rate", "interest rates", "rate cut", "rate hike", "federal reserve", "the fed", "fomc", "treasury yields", "basis points"],
        .macro: ["inflation", "jobs report", "payrolls", "gdp", "unemployment", "consumer prices", "recession", "tariff", "tariffs"],
        .regulation: ["regulator", "regulators", "antitrust", "sec", "ftc", "approval", "approves", "rules", "regulation"],
        .legal: ["lawsuit", "sued", "sues", "court", "settlement", "probe", "investigation", "fine", "fined"],
        .product: ["launch", "launches", "unveils", "unveiled", "new product", "product line", "rollout", "rolls out", "debuts"],
        .leadership: ["ceo", "chief executive", "steps down", "resigns", "appoints", "names new", "successor"],
    ]

    static let toneWords = (
        positive: ["beat", "beats", "surge", "surges", "jump", "jumps", "record", "raises", "upgrade", "upgraded", "strong", "stronger", "gains", "rally", "rallies", "soars", "tops", "boost", "boosts"],
        negative: ["miss", "misses", "missed", "falls", "fall", "plunge", "plunges", "cuts", "downgrade", "downgraded", "weak", "weaker", "decline", "declines", "slump", "warns", "recall", "layoffs", "probe", "lawsuit"]
    )
}

import Foundation
