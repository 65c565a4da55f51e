import Foundation

/// The served model's constants: the item–item weights' λ and rating floor, and the scorer's shares
/// (`Scorer`, projections/recommendations.md). The defaults are what `nuvie eval --split both --tune`
/// chose on the bundled data's validation splits. A deployment on other data tunes on its own
/// ratings the same way and serves the choice by setting `NUVIE_RECOMMENDER` to the line `--tune`
/// prints (`text`): `lambda=250 minimum-ratings=10 genre-share=0.15 half-life=5 floor=0.5
/// sequence=0.3 recent-sequence=0.3 rated-not-liked=1 full-history=20`; a key left out keeps its
/// default, and `half-life=none` turns recency off.
public struct RecommenderConstants: Sendable, Equatable {
    public var lambda = ItemSimilarityModel.Parameters.plainEASE.lambda
    public var minimumRatings = ItemSimilarityModel.Parameters.plainEASE.minimumRatings
    public var genreShare = Scorer.defaultGenreShare
    public var recencyHalfLife = Scorer.defaultRecencyHalfLife
    public var recencyFloor = Scorer.defaultRecencyFloor
    public var sequenceWeight = Scorer.defaultSequenceWeight
    public var recentSequenceWeight = Scorer.defaultRecentSequenceWeight
    public var otherRatingsWeight = Scorer.defaultOtherRatingsWeight
    public var fullHistory = Scorer.defaultFullHistory

    public init() {}

    /// A refused line: what was wrong, for the operator.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Each key, its range, and where it goes. Whole numbers only for `minimum-ratings`.
    private static let keys: [(name: String, range: ClosedRange<Double>, path: any WritableKeyPath<RecommenderConstants, Double> & Sendable)] = [
        ("lambda", 1...1_000_000, \.lambda), ("genre-share", 0...0.9, \.genreShare), ("floor", 0...1, \.recencyFloor),
        ("sequence", 0...10, \.sequenceWeight), ("recent-sequence", 0...10, \.recentSequenceWeight),
        ("rated-not-liked", 0...1, \.otherRatingsWeight), ("full-history", 3...10_000, \.fullHistory),
    ]

    public init(_ text: String) throws(Invalid) {
        var seen = Set<String>()
        for pair in text.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else { throw Invalid(description: "\(pair) is not key=value") }
            let (key, value) = (parts[0], parts[1])
            guard seen.insert(key).inserted else { throw Invalid(description: "\(key) is given twice") }
            switch key {
            case "minimum-ratings":
                guard let whole = Int(value), (1...100_000).contains(whole) else { throw Invalid(description: "minimum-ratings must be a whole number from 1 to 100000") }
                minimumRatings = whole
            case "half-life" where value == "none":
                recencyHalfLife = nil
            case "half-life":
                guard let ratings = Double(value), ratings > 0, ratings <= 10_000 else { throw Invalid(description: "half-life must be a number of ratings above 0, or none") }
                recencyHalfLife = ratings
            default:
                guard let entry = Self.keys.first(where: { $0.name == key }) else {
                    throw Invalid(description: "\(key) is not a constant (\((["minimum-ratings", "half-life"] + Self.keys.map(\.name)).sorted().joined(separator: ", ")))")
                }
                guard let number = Double(value), number.isFinite, entry.range.contains(number) else {
                    throw Invalid(description: "\(key) must be a number from \(Self.plain(entry.range.lowerBound)) to \(Self.plain(entry.range.upperBound))")
                }
                self[keyPath: entry.path] = number
            }
        }
    }

    /// Every constant, as `init(_:)` reads it back.
    public var text: String {
        let halfLife = recencyHalfLife.map(Self.plain) ?? "none"
        let pairs = Self.keys.map { "\($0.name)=\(Self.plain(self[keyPath: $0.path]))" }
        return ([pairs[0], "minimum-ratings=\(minimumRatings)", pairs[1], "half-life=\(halfLife)"] + pairs.dropFirst(2)).joined(separator: " ")
    }

    /// 250 as `250`, 0.15 as `0.15`: no grouping, no locale.
    private static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// The scorer over `model` with these shares (`signalWeight`: what `nuvie eval --signals` measures).
    public func scorer(model: ItemSimilarityModel, catalog: CatalogSnapshot, signalWeight: Double = Scorer.defaultSignalWeight) -> Scorer {
        Scorer(
            model: model, catalog: catalog, genreShare: genreShare, recencyHalfLife: recencyHalfLife, recencyFloor: recencyFloor,
            sequenceWeight: sequenceWeight, recentSequenceWeight: recentSequenceWeight, fullHistory: fullHistory,
            otherRatingsWeight: otherRatingsWeight, signalWeight: signalWeight
        )
    }
}
