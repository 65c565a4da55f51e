import SeededRandom

/// The demo's news: synthetic, seeded, and labelled so everywhere (every source ends `(synthetic)`,
/// every URL is on `.example`, a reserved domain). No redistributable financial news set exists, so
/// this stands in for one: 30 days from 2025-12-03, about eighty events, each reported by one to six
/// fictional outlets in their own words, some syndicated word for word by another outlet. It knows
/// which articles report the same event (`storyKey`) and which are copies (`copyOf`): the ground
/// truth that clustering and de-duplication are measured against (`news eval-clusters`).
public enum SyntheticNews {
    public struct Article: Sendable, Equatable {
        public var ingested: ArticleIngested
        public var storyKey: Int
        /// The URL of the article this one copies word for word, if it is a copy.
        public var copyOf: String?
    }

    public static let windowStart: Int64 = 1_764_720_000
    public static let days = 30
    public static let defaultSeed: UInt64 = 20_251_203

    static let outlets = [
        "Harbor Street Journal", "Meridian Wire", "Copperline Markets", "The Ledger Post", "Northgate Business", "Atlas Financial Times",
        "Pinecrest Daily", "Bluewater Report",
    ]

    static let companies: [(symbol: String, name: String, driver: [String])] = [
        ("AAPL", "Apple", ["iPhone", "services", "wearables"]), ("MSFT", "Microsoft", ["Azure", "cloud", "Copilot"]),
        ("NVDA", "Nvidia", ["data center", "GPU", "AI chip"]), ("AMZN", "Amazon", ["AWS", "retail", "advertising"]),
        ("GOOGL", "Alphabet", ["search", "YouTube", "Google Cloud"]), ("META", "Meta Platforms", ["advertising", "Reels", "Quest"]),
        ("TSLA", "Tesla", ["Model Y", "energy storage", "robotaxi"]), ("JPM", "JPMorgan Chase", ["investment banking", "trading", "lending"]),
        ("XOM", "ExxonMobil", ["refining", "Permian", "LNG"]), ("WMT", "Walmart", ["grocery", "e-commerce", "membership"]),
        ("PFE", "Pfizer", ["vaccine", "oncology", "pipeline"]), ("NFLX", "Netflix", ["subscriber", "ad tier", "live sports"]),
        ("AMD", "AMD", ["server chip", "Ryzen", "Instinct"]), ("ORCL", "Oracle", ["database", "cloud infrastructure", "OCI"]),
        ("DIS", "Disney", ["theme park", "Disney+", "box office"]), ("BA", "Boeing", ["737 MAX", "defense", "deliveries"]),
        ("KO", "Coca-Cola", ["beverage", "pricing", "zero sugar"]), ("NKE", "Nike", ["footwear", "China", "direct sales"]),
    ]

    /// `noise` (0 to 1) rewrites that share of each article's words with unrelated filler, for
    /// measuring how clustering degrades with noisier wording. More `stories` over more `days` make
    /// a larger set of the same density or denser (the demo: 80 over 30); `startDay` days after the
    /// demo's first, a set that follows another.
    public static func generate(seed: UInt64 = defaultSeed, noise: Double = 0, stories: Int = 80, days: Int = days, startDay: Int = 0) -> [Article] {
        var random = SplitMix64(seed: seed)
        var articles: [Article] = []
        for story in 0..<stories {
            let day = Int64(startDay + story * days / stories)
            let start = windowStart + day * 86_400 + Int64.random(in: 6 * 3600...18 * 3600, using: &random)
            let event = Self.event(story, &random)
            // A set that follows another names its stories apart (the demo's URLs unchanged).
            let storyPath = startDay == 0 ? "\(story)" : "\(startDay)-\(story)"
            let outletCount = [1, 1, 2, 3, 3, 4, 5, 6].randomElement(using: &random) ?? 1
            let chosen = outlets.shuffled(using: &random).prefix(outletCount)
            var written: [Article] = []
            // Each outlet words it its own way: no two share a title, description and body.
            let wordings = event.titles.indices.flatMap { t in event.descriptions.indices.flatMap { d in event.bodies.indices.map { (t, d, $0) } } }
                .shuffled(using: &random)
            for (index, outlet) in chosen.enumerated() {
                let (t, d, b) = wordings[index % wordings.count]
                let title = event.titles[t], description = event.descriptions[d], body = event.bodies[b]
                let slug = title.lowercased().filter { $0.isLetter || $0 == " " }.split(separator: " ").prefix(6).joined(separator: "-")
                let url = "https://\(outlet.lowercased().filter(\.isLetter)).example/2025/\(storyPath)/\(slug)-\(index)"
                written.append(Article(ingested: ArticleIngested(
                    url: url, title: title, source: "\(outlet) (synthetic)",
                    publishedAt: start + Int64(index) * Int64.random(in: 600...7200, using: &random),
                    description: description, body: body, feed: "demo"
                ), storyKey: story, copyOf: nil))
            }
            if let original = written.first, Double.random(in: 0..<1, using: &random) < 0.25,
               let copier = outlets.filter({ !chosen.contains($0) }).randomElement(using: &random) {
                var copy = original.ingested
                copy.source = "\(copier) (synthetic)"
                copy.url = "https://\(copier.lowercased().filter(\.isLetter)).example/syndicated/\(storyPath)"
                copy.publishedAt += 1800
                written.append(Article(ingested: copy, storyKey: story, copyOf: original.ingested.url))
            }
            articles += written
        }
        // Noise draws from a generator of its own, so every noise level rewords the same articles;
        // a copy copies its original as reworded.
        var noiseRandom = SplitMix64(seed: seed ^ 0x6E6F_6973_65)
        var reworded: [String: ArticleIngested] = [:]
        return articles.sorted { ($0.ingested.publishedAt, $0.ingested.url) < ($1.ingested.publishedAt, $1.ingested.url) }.map { article in
            guard noise > 0 else { return article }
            var result = article
            if let original = article.copyOf.flatMap({ reworded[$0] }) {
                (result.ingested.title, result.ingested.description, result.ingested.body) = (original.title, original.description, original.body)
            } else {
                result.ingested.title = Self.noisy(article.ingested.title, noise, &noiseRandom)
                result.ingested.description = Self.noisy(article.ingested.description, noise, &noiseRandom)
                result.ingested.body = article.ingested.body.map { Self.noisy($0, noise, &noiseRandom) }
                reworded[article.ingested.url] = result.ingested
            }
            return result
        }
    }

    struct Event {
        var titles: [String]
        var descriptions: [String]
        var bodies: [String]
    }

    static func event(_ story: Int, _ random: inout SplitMix64) -> Event {
        let company = companies[Int.random(in: 0..<companies.count, using: &random)]
        let driver = pick(company.driver, &random)
        let pct = Int.random(in: 3...38, using: &random)
        let other = companies.filter { $0.symbol != company.symbol }.randomElement(using: &random) ?? company
        let billions = Int.random(in: 2...60, using: &random)
        let name = company.name, symbol = company.symbol
        switch story % 8 {
        case 0, 4:
            return Event(
                titles: ["\(name) beats estimates as quarterly revenue rises \(pct)%", "\(name) quarterly profit tops forecasts on \(driver) demand",
                         "\(name) (\(symbol)) earnings beat lifted by \(driver)", "\(name) shares jump after strong \(driver) quarter"],
                descriptions: ["\(name) reported quarterly revenue up \(pct)% from a year earlier, driven by \(driver), and earnings per share above estimates.",
                               "Revenue grew \(pct)% at \(name) as \(driver) sales beat what analysts expected; profit per share also topped forecasts.",
                               "$\(symbol): \(driver) strength pushed \(name) quarterly results past Wall Street estimates, revenue up \(pct)%."],
                bodies: ["Analysts had expected slower growth in \(driver). \(name) said demand stayed strong through the quarter.",
                         "The \(driver) business led the quarter. Executives said margins improved and demand held up.",
                         "Investors cheered the \(driver) numbers; \(name) said it saw continued demand."]
            )
        case 1:
            return Event(
                titles: ["\(name) agrees to acquire \(other.name) unit for $\(billions) billion", "\(name) strikes $\(billions) billion deal to buy \(other.name) business",
                         "\(name) (\(symbol)) announces \(billions)-billion acquisition"],
                descriptions: ["\(name) said it will acquire a \(other.name) division in a $\(billions) billion acquisition aimed at \(driver).",
                               "The $\(billions) billion takeover of the \(other.name) unit would expand \(name) in \(driver), the companies said.",
                               "\(name) agreed to buy the business from \(other.name) for about $\(billions) billion to grow its \(driver) reach."],
                bodies: ["The acquisition needs regulator approval and is expected to close next year.",
                         "Both boards approved the merger terms; regulators must still review the deal.",
                         "The deal is subject to antitrust review, the companies said."]
            )
        case 2:
            let bps = [25, 50].randomElement(using: &random) ?? 25
            return Event(
                titles: ["Federal Reserve cuts interest rates by \(bps) basis points", "Fed lowers rates \(bps) basis points as inflation cools",
                         "FOMC delivers \(bps) basis point rate cut"],
                descriptions: ["The Federal Reserve cut its benchmark interest rate by \(bps) basis points, citing cooling inflation and a softer jobs market.",
                               "Policymakers lowered interest rates by \(bps) basis points; the Fed pointed to easing inflation.",
                               "A \(bps) basis point rate cut from the Federal Reserve sent treasury yields lower."],
                bodies: ["Treasury yields fell after the decision. The Fed signalled further moves depend on inflation data.",
                         "Markets had priced in the rate cut. Officials said they will watch inflation and unemployment closely.",
                         "The decision was widely expected; yields on two-year treasuries slipped."]
            )
        case 3:
            let product = "\(name) \(pick(["Nova", "Aurora", "Pulse", "Summit", "Vertex", "Orbit"], &random)) \(Int.random(in: 2...9, using: &random))"
            return Event(
                titles: ["\(name) unveils \(product) in \(driver) push", "\(name) launches \(product)", "\(product) debuts as \(name) expands \(driver) line"],
                descriptions: ["\(name) unveiled the \(product), a new product line for its \(driver) business, shipping next month.",
                               "The \(product) launch marks the latest \(driver) rollout from \(name), available from next month.",
                               "\(name) rolls out the \(product) to widen its \(driver) offering."],
                bodies: ["Pricing was not disclosed. The company said the \(product) targets \(driver) customers.",
                         "Reviewers praised the \(product) design; \(name) expects strong \(driver) demand.",
                         "The \(product) will ship in the first quarter, \(name) said."]
            )
        case 5:
            return Event(
                titles: ["Regulators open antitrust probe into \(name) \(driver) practices", "\(name) faces antitrust investigation over \(driver)",
                         "\(name) (\(symbol)) hit by regulator probe into \(driver)"],
                descriptions: ["Regulators said they opened an antitrust investigation into how \(name) runs its \(driver) business.",
                               "An antitrust probe will examine \(name) and its \(driver) practices, regulators said.",
                               "\(name) is under investigation by regulators over its \(driver) conduct; shares fell."],
                bodies: ["\(name) said it would cooperate with the probe and believes its \(driver) practices are lawful.",
                         "The investigation could lead to a fine, analysts said; \(name) denied wrongdoing.",
                         "Shares fell on the news of the probe; \(name) said it would cooperate."]
            )
        case 6:
            let measure = pick(["Consumer prices", "Inflation", "The jobs report"], &random)
            return Event(
                titles: ["\(measure) surprise: inflation runs at \(Double(pct) / 10)% in November", "Inflation cools to \(Double(pct) / 10)% as consumer prices ease",
                         "November consumer prices rise \(Double(pct) / 10)%, inflation data show"],
                descriptions: ["Consumer prices rose \(Double(pct) / 10)% from a year earlier in November, government data showed, as inflation cooled.",
                               "Inflation eased to \(Double(pct) / 10)% in November, according to the consumer prices report.",
                               "The latest inflation reading, \(Double(pct) / 10)%, came in below what economists expected."],
                bodies: ["Economists said the data support further interest rate cuts next year.",
                         "The report showed slower gains in shelter and energy prices; the economy remains resilient.",
                         "Stocks rallied after the inflation data; treasury yields fell."]
            )
        default: // total: a switch over the kind number drawn; the rest are guidance raises
            return Event(
                titles: ["\(name) raises full-year guidance on \(driver) strength", "\(name) lifts its outlook as \(driver) demand grows",
                         "\(name) (\(symbol)) boosts forecast for the year"],
                descriptions: ["\(name) raised its full-year guidance, citing \(driver) demand, and now expects revenue growth of \(pct)%.",
                               "The company lifted its outlook for the year on \(driver) strength, forecasting \(pct)% revenue growth.",
                               "\(name) boosts its forecast: \(pct)% growth for the year as \(driver) demand holds."],
                bodies: ["The new guidance is above the analyst consensus. \(name) pointed to \(driver) orders.",
                         "Management said the \(driver) outlook had improved since last quarter.",
                         "Shares rose after the outlook raise; analysts called the \(driver) trend durable."]
            )
        }
    }

    static func pick(_ choices: [String], _ random: inout SplitMix64) -> String {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }

    static let filler = ["meanwhile", "notably", "reportedly", "broadly", "separately", "elsewhere", "overall", "indeed", "today", "further"]

    static func noisy(_ text: String, _ noise: Double, _ random: inout SplitMix64) -> String {
        guard noise > 0 else { return text }
        return text.split(separator: " ").map { word in
            Double.random(in: 0..<1, using: &random) < noise ? pick(filler, &random) : String(word)
        }.joined(separator: " ")
    }
}
