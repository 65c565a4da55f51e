import Foundation

/// An article's worth to one user, as a sum of terms, each a true statement about the stored data:
/// holdings it mentions, other tickers it mentions, the kind of event it reports, how many outlets
/// cover its story, how recent it is. `why` is the largest terms' statements; every other field
/// follows from the terms by the rules below (README's "News" section lists them).
public struct SignalScore: Sendable {
    public enum Term: Sendable, Equatable {
        case holding(String, points: Double)
        case mention(String, points: Double)
        case event(ArticleReading.EventType, phrase: String, points: Double)
        case coverage(outlets: Int, points: Double)
        case recency(hours: Int, points: Double)

        public var points: Double {
            switch self {
            case .holding(_, let p), .mention(_, let p), .event(_, _, let p), .coverage(_, let p), .recency(_, let p): p
            }
        }
    }

    public struct Inputs: Sendable {
        public var reading: ArticleReading
        /// Outlets covering the article's story group (1 when it stands alone).
        public var outlets: Int
        /// Hours from its publication to the newest article the server holds (the data's own clock,
        /// so a replay and a test score alike); nil for pasted text, which has no place in time.
        public var ageHours: Int?
        public var holdings: Set<String>
        public var focus: FocusProfile

        public init(reading: ArticleReading, outlets: Int, ageHours: Int?, holdings: Set<String>, focus: FocusProfile) {
            self.reading = reading
            self.outlets = outlets
            self.ageHours = ageHours
            self.holdings = holdings
            self.focus = focus
        }
    }

    public var terms: [Term]

    public init(_ inputs: Inputs, tickers: TickerList = .sp500) {
        let (heldWeight, otherWeight): (Double, Double) = switch inputs.focus {
        case .focused: (1.3, 0.5)
        case .balanced: (1, 1)
        case .broad: (0.8, 1.3)
        }
        var terms: [Term] = []
        let held = inputs.reading.tickers.filter(inputs.holdings.contains)
        let others = inputs.reading.tickers.filter { !inputs.holdings.contains($0) }
        terms += held.prefix(2).map { .holding($0, points: 35 * heldWeight) }
        terms += others.prefix(2).map { .mention($0, points: 8 * otherWeight) }
        if let phrase = inputs.reading.eventEvidence {
            terms.append(.event(inputs.reading.eventType, phrase: phrase, points: Self.eventPoints[inputs.reading.eventType] ?? 0))
        }
        if inputs.outlets > 1 { terms.append(.coverage(outlets: inputs.outlets, points: min(20, 4 * Double(inputs.outlets - 1)))) }
        if let age = inputs.ageHours {
            let recency: Double = age <= 24 ? 15 : age <= 72 ? 10 : age <= 168 ? 5 : 0
            if recency > 0 { terms.append(.recency(hours: age, points: recency)) }
        }
        self.terms = terms
        reading = inputs.reading
        self.tickers = tickers
    }

    private let reading: ArticleReading
    private let tickers: TickerList

    public static let eventPoints: [ArticleReading.EventType: Double] = [
        .earnings: 20, .guidance: 18, .merger: 18, .rates: 16, .macro: 14, .regulation: 14, .legal: 12, .product: 10, .leadership: 10, .general: 0,
    ]

    public var total: Double { terms.reduce(0) { $0 + $1.points } }
    /// The total, rounded, at most 100.
    public var importance: Int { min(100, Int(total.rounded())) }
    /// 50, and 10 for each kind of evidence present (a holding, another ticker, an event, wider
    /// coverage), at most 90: how many independent things say this matters.
    public var confidence: Int {
        let kinds = Set(terms.compactMap { term -> Int? in
            switch term {
            case .holding: 0
            case .mention: 1
            case .event: 2
            case .coverage: 3
            case .recency: nil
            }
        })
        return min(90, 50 + 10 * kinds.count)
    }

    /// `aware` from an importance of 25, else `ignore`.
    public var verdict: String { importance >= 25 ? "aware" : "ignore" }

    /// The three largest terms, as sentences; one sentence saying so when there are none.
    public var why: [String] {
        let ranked = terms.enumerated().sorted { $0.element.points != $1.element.points ? $0.element.points > $1.element.points : $0.offset < $1.offset }
        let lines = ranked.prefix(3).map { sentence($0.element) }
        return lines.isEmpty ? ["Mentions no known ticker and no market-moving event"] : lines
    }

    public func sentence(_ term: Term) -> String {
        switch term {
        case .holding(let symbol, _): "Mentions \(name(symbol)), which you hold"
        case .mention(let symbol, _): "Mentions \(name(symbol))"
        case .event(let type, let phrase, _): "\(Self.eventNames[type] ?? "News"): the text says “\(phrase)”"
        case .coverage(let outlets, _): "\(outlets) outlets cover this story"
        case .recency(let hours, _): hours == 0 ? "Among the newest articles" : "Published \(hours) hour\(hours == 1 ? "" : "s") before the newest article"
        }
    }

    private func name(_ symbol: String) -> String {
        tickers.company(symbol).map { "\($0.name) (\(symbol))" } ?? symbol
    }

    static let eventNames: [ArticleReading.EventType: String] = [
        .earnings: "Earnings news", .guidance: "Guidance news", .merger: "Deal news", .rates: "Interest-rate news", .macro: "Economic news",
        .regulation: "Regulatory news", .legal: "Legal news", .product: "Product news", .leadership: "Leadership news",
    ]

    public var action: String {
        guard verdict == "aware" else { return "No action needed" }
        return switch reading.eventType {
        case .earnings: "Compare the results with your expectations"
        case .guidance: "Revisit your assumptions for the year"
        case .merger: "Check the deal terms and what they mean for the shares"
        case .rates: "Review rate-sensitive positions"
        case .regulation, .legal: "Watch for the outcome and what it costs"
        case .product: "Note it for the longer-term thesis"
        case .leadership: "Watch the transition"
        case .macro, .general: "Understand the context"
        }
    }

    /// `short` for results and guidance, `long` for products, `medium` for the other events; none
    /// when no event was found.
    public var horizon: String? {
        switch reading.eventType {
        case .earnings, .guidance: "short"
        case .product: "long"
        case .general: nil
        case .merger, .rates, .macro, .regulation, .legal, .leadership: "medium"
        }
    }

    /// From the wording's tone: `positive`, `negative`, or `none` when neither side's words outnumber.
    public var opportunityType: String {
        switch reading.tone {
        case .positive: "positive"
        case .negative: "negative"
        case .neutral: "none"
        }
    }

    public var opportunityNote: String {
        reading.toneEvidence.isEmpty ? "" : "\(reading.tone == .positive ? "Positive" : "Negative") wording: \(reading.toneEvidence.prefix(3).joined(separator: ", "))"
    }
}
