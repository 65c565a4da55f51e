import Foundation

/// The served model: a film's score is a sum of five non-negative terms, each the product of a fixed
/// share and a signal in [0, 1], so the score is in [0, 1] and each factor's weight is its exact share.
///
///     score = (1 − σ)·c·(1 − g)·personal   (L + O) / the largest L + O among your candidates, split
///                                          L : O between because_you_rated and similar_users
///           + (1 − σ)·c·g·genre            genre_match: mean of your liking for the film's genres
///           + (1 − σ)·(1 − c)·popularity   popular: ratings of the film / ratings of the most rated film
///           + σ·social                     friend_activity: min(1, friends who gave it 4+ stars or recommended it / 3)
///
/// L is what the films you liked add to the film, O what the films you rated but did not like add,
/// times a, and the films you finished or saved without rating them, times s; both are net sums
/// (weights can be negative), and one at or below zero is netted into the other, which alone shows
/// (projections/recommendations.md). A film adds its item–item weight to the film times
/// f + (1 − f)·d, over the largest such sum among your candidates; and its sequence weight (the films
/// people rate next to it, `SequenceNeighbours`) times q over the largest sum of them, and times r·d
/// over the largest sum of those: d = 0.5^(k / h), k the number of the user's ratings newer than it
/// and h the recency half-life (none: d = 1). What comes next follows what the user rated last, but
/// a film rated long ago still counts at least f of its item–item weights (without the floor, a
/// random split, whose held-out films are not the newest, fell below most-popular).
///
/// c = min(1, the films you rated, finished or saved / n), 0 under 3 of them or with no film liked
/// yet (cold start: popularity until we know your taste); σ = 0.2 when social signals are used and you have friends, else 0.
/// g = 0.15, h = 5 ratings, f = 0.5, q = r = 0.3, a = 1 and n = 20 were chosen by `nuvie eval --split both --tune`
/// on validation splits of the bundled data's training part, on the weights (λ, the minimum ratings
/// per film) plain EASE's own search chose there (BENCHMARKS.md).
public struct Scorer: Sendable {
    public struct Options: Sendable {
        public var useSocial: Bool
        /// Limits the personal term to these of the user's rated, finished or saved films.
        public var seedFilter: Set<Int64>?
        public var exclude: Set<Int64>

        public init(useSocial: Bool = true, seedFilter: Set<Int64>? = nil, exclude: Set<Int64> = []) {
            self.useSocial = useSocial
            self.seedFilter = seedFilter
            self.exclude = exclude
        }
    }

    public static let defaultGenreShare = 0.15
    public static let defaultFullHistory = 20.0
    static let socialShare = 0.2
    static let minimumHistory = 3
    static let friendsForFullSocial = 3.0

    public let model: ItemSimilarityModel
    public let catalog: CatalogSnapshot
    /// g above; `1 − g` is the personal term's share of the personal part.
    public let genreShare: Double
    /// h above, in ratings; nil: no decay.
    public let recencyHalfLife: Double?
    /// f above: the least a liked film counts, however long ago it was rated.
    public let recencyFloor: Double
    /// q above: what every rated film's sequence weights count, however long ago it was rated.
    public let sequenceWeight: Double
    /// r above: what they count more the more recent the film.
    public let recentSequenceWeight: Double
    /// The ratings at which c reaches 1 (n above): below it, popularity keeps a share.
    public let fullHistory: Double
    /// a above: what a film the user rated but did not like counts beside one they liked; 0 leaves
    /// such films out (and `similar_users` with them).
    public let otherRatingsWeight: Double
    /// s above: what a film the user finished or saved without rating it counts beside one they
    /// liked; 0 leaves such films out of the personal term.
    public let signalWeight: Double
    let mostRatings: Int

    public static let defaultRecencyHalfLife: Double? = 5
    public static let defaultRecencyFloor = 0.5
    public static let defaultSequenceWeight = 0.3
    public static let defaultRecentSequenceWeight = 0.3
    public static let defaultOtherRatingsWeight = 1.0
    public static let defaultSignalWeight = 1.0

    public init(
        model: ItemSimilarityModel, catalog: CatalogSnapshot, genreShare: Double = Scorer.defaultGenreShare,
        recencyHalfLife: Double? = Scorer.defaultRecencyHalfLife, recencyFloor: Double = Scorer.defaultRecencyFloor,
        sequenceWeight: Double = Scorer.defaultSequenceWeight, recentSequenceWeight: Double = Scorer.defaultRecentSequenceWeight,
        fullHistory: Double = Scorer.defaultFullHistory, otherRatingsWeight: Double = Scorer.defaultOtherRatingsWeight,
        signalWeight: Double = Scorer.defaultSignalWeight
    ) {
        self.model = model
        self.catalog = catalog
        self.genreShare = genreShare
        self.recencyHalfLife = recencyHalfLife
        self.recencyFloor = recencyFloor
        self.sequenceWeight = sequenceWeight
        self.recentSequenceWeight = recentSequenceWeight
        self.fullHistory = fullHistory
        self.otherRatingsWeight = otherRatingsWeight
        self.signalWeight = signalWeight
        mostRatings = catalog.ratingCounts.values.max() ?? 0
    }

    /// How far the user's history personalises the score (c above).
    func personalisation(filmsKnown: Int) -> Double {
        filmsKnown < Self.minimumHistory ? 0 : min(1, Double(filmsKnown) / fullHistory)
    }

    /// One user's scoring pass, to ask several questions of: their personal sums over the model's
    /// films are computed once, here.
    public func prepare(_ profile: TasteProfile, options: Options = .init()) -> UserScoring {
        UserScoring(scorer: self, profile: profile, options: options)
    }

    /// The best `limit` films after `offset`, each with its explanation. Films the user rated or
    /// finished, and `options.exclude`, are left out; so are films with nothing in their favour.
    public func recommend(_ profile: TasteProfile, options: Options = .init(), limit: Int, offset: Int = 0) -> (items: [ScoredMovie], totalCount: Int) {
        prepare(profile, options: options).recommend(limit: limit, offset: offset)
    }

    /// Scores only: what offline evaluation ranks by.
    public func topMovieIds(_ profile: TasteProfile, limit: Int) -> [Int64] {
        prepare(profile, options: .init(useSocial: false)).ranked(limit: limit).map(\.movieId)
    }

    /// One film's score and explanation, as the feed would give it (rated films included).
    public func explain(_ profile: TasteProfile, movieId: Int64, options: Options = .init()) -> ScoredMovie {
        prepare(profile, options: options).explain(movieId)
    }
}

struct Terms {
    /// because_you_rated's part of the personal term.
    var personal = 0.0
    /// similar_users' part of it.
    var similar = 0.0
    var genre = 0.0
    var popular = 0.0
    var social = 0.0
    var score: Double { personal + similar + genre + popular + social }
}

/// A film the user rated, or finished or saved without rating it (`signal`), as the model holds it.
struct SeedRow {
    var film: Int64
    var row: Int
    /// What its item–item weights count (f + (1 − f)·d, times `share`).
    var weight: Double
    /// 1 for a film liked, a for one rated but not liked, s for one finished or saved.
    var share: Double
    /// d: 0.5^(k / h), or 1 (no half-life, or a film finished or saved: they have no rank among the ratings).
    var recency: Double
    var signal: TasteProfile.Signal?
}

/// One user's scoring pass: their personal sums over the model's films, computed once.
public struct UserScoring: Sendable {
    let scorer: Scorer
    let profile: TasteProfile
    let options: Scorer.Options
    let personalisation: Double
    let social: Double
    /// The films the user liked.
    let seeds: [Int64]
    /// The liked films and the others that the model covers, each with its row in the weights and
    /// what its weights count (`SeedRow`), times `Scorer.otherRatingsWeight` for the others rated, and
    /// `Scorer.signalWeight` for the films finished or saved (not decayed: they have no rank among
    /// the ratings).
    let likedRows: [SeedRow]
    let otherRows: [SeedRow]
    /// Over the model's films: what the liked films add, and what the others add.
    let personal: [Double]
    let similar: [Double]
    /// What a seed's item–item weight is multiplied by beside `SeedRow.weight` (1 / the largest sum
    /// among the candidates), and its sequence weight beside `SeedRow.share` (q / the largest sum)
    /// and beside `SeedRow.share`·d (r / the largest such sum); 0 where that sum is nowhere positive.
    let weightScale: Double
    let everySequenceScale: Double
    let recentSequenceScale: Double
    let largestPersonal: Double
    let genreAffinity: [String: Double]

    init(scorer: Scorer, profile: TasteProfile, options: Scorer.Options) {
        self.scorer = scorer
        self.profile = profile
        self.options = options
        let chosen = profile.ratings.filter { options.seedFilter?.contains($0.key) ?? true }
        seeds = chosen.filter { $0.value.liked }.keys.sorted()
        // With `Scorer.otherRatingsWeight` above 0, the others they rated count too.
        let others = scorer.otherRatingsWeight > 0 ? chosen.filter { !$0.value.liked }.keys.sorted() : []
        // A film rated speaks as a rating; with `Scorer.signalWeight` 0 the others are left out.
        let unrated = scorer.signalWeight > 0 ? profile.signals.keys.filter { profile.ratings[$0] == nil } : []
        let signals = unrated.filter { options.seedFilter?.contains($0) ?? true }.sorted()
        // Nothing liked yet, however much rated: nothing to personalise from, so popularity it is.
        personalisation = seeds.isEmpty ? 0 : scorer.personalisation(filmsKnown: profile.ratings.count + unrated.count)
        social = options.useSocial && profile.friendCount > 0 ? Scorer.socialShare : 0
        let recency = Self.recency(seeds + others, profile, halfLife: scorer.recencyHalfLife)
        func rows(_ films: [Int64], times share: Double, signals: [Int64: TasteProfile.Signal] = [:]) -> [SeedRow] {
            films.compactMap { film in
                let d = recency[film] ?? 1
                return scorer.model.index[film].map {
                    SeedRow(
                        film: film, row: $0, weight: (scorer.recencyFloor + (1 - scorer.recencyFloor) * d) * share, share: share,
                        recency: d, signal: signals[film]
                    )
                }
            }
        }
        likedRows = rows(seeds, times: 1)
        otherRows = rows(others, times: scorer.otherRatingsWeight) + rows(signals, times: scorer.signalWeight, signals: profile.signals)
        let model = scorer.model
        let (liked, other) = model.sums(of: likedRows.map { ($0.row, $0.weight) }, and: otherRows.map { ($0.row, $0.weight) })
        // Each seed's sequence weights, as they count always (x) and by recency (y).
        func next(_ rows: [SeedRow]) -> [SIMD2<Double>] {
            model.sequence.sums(of: rows.map { ($0.row, SIMD2($0.share, $0.share * $0.recency)) })
        }
        let likedNext = next(likedRows), otherNext = next(otherRows)
        let candidates = model.movieIds.indices.filter { Self.isCandidate(model.movieIds[$0], profile, options) }
        func inverseOfLargest(_ sum: (Int) -> Double) -> Double {
            let largest = candidates.map(sum).max() ?? 0
            return largest > 0 ? 1 / largest : 0
        }
        let weightScale = inverseOfLargest { liked[$0] + other[$0] }
        let everyScale = scorer.sequenceWeight * inverseOfLargest { likedNext[$0].x + otherNext[$0].x }
        let recentScale = scorer.recentSequenceWeight * inverseOfLargest { likedNext[$0].y + otherNext[$0].y }
        func combined(_ weights: [Double], _ next: [SIMD2<Double>]) -> [Double] {
            weights.indices.map { weights[$0] * weightScale + next[$0].x * everyScale + next[$0].y * recentScale }
        }
        let personal = combined(liked, likedNext), similar = combined(other, otherNext)
        largestPersonal = candidates.map { personal[$0] + similar[$0] }.max() ?? 0
        (self.personal, self.similar) = (personal, similar)
        (self.weightScale, everySequenceScale, recentSequenceScale) = (weightScale, everyScale, recentScale)
        let mostLiked = Double(profile.likedByGenre.values.max() ?? 0)
        genreAffinity = mostLiked > 0 ? profile.likedByGenre.mapValues { Double($0) / mostLiked } : [:]
    }

    /// d = 0.5^(k / halfLife) for each seed, k the number of the user's ratings recorded after it.
    static func recency(_ seeds: [Int64], _ profile: TasteProfile, halfLife: Double?) -> [Int64: Double] {
        guard let halfLife else { return [:] }
        // Newest first; equal positions (offline) in film order, so the weights are the same every run.
        let newestFirst = profile.ratings.sorted { ($0.value.position, $1.key) > ($1.value.position, $0.key) }.map(\.key)
        let rank = Dictionary(uniqueKeysWithValues: newestFirst.enumerated().map { ($0.element, $0.offset) })
        return Dictionary(uniqueKeysWithValues: seeds.map { ($0, pow(0.5, Double(rank[$0] ?? 0) / halfLife)) })
    }

    static func isCandidate(_ movieId: Int64, _ profile: TasteProfile, _ options: Scorer.Options) -> Bool {
        !profile.hasSeen(movieId) && !options.exclude.contains(movieId)
    }

    public func recommend(limit: Int, offset: Int = 0) -> (items: [ScoredMovie], totalCount: Int) {
        let ranked = ranked()
        let page = ranked.dropFirst(offset).prefix(limit)
        return (page.map { scored($0.movieId, terms: $0.terms) }, ranked.count)
    }

    public func explain(_ movieId: Int64) -> ScoredMovie {
        scored(movieId, terms: terms(movieId))
    }

    /// `ai_score` and `social_score` alone, without building the factors.
    public func scores(_ movieId: Int64) -> (aiScore: Int, socialScore: Int) {
        let terms = terms(movieId)
        let friends = social > 0 ? friends(movieId).count : 0
        return (ScoredMovie.aiScore(min(1, terms.score)), ScoredMovie.socialScore(friends: friends))
    }

    /// The candidates with something in their favour, best first (ties: the lower id); with `limit`,
    /// only the first `limit`, picked without sorting the rest.
    func ranked(limit: Int? = nil) -> [(movieId: Int64, terms: Terms)] {
        var candidates = Set(scorer.model.movieIds).union(scorer.catalog.mostRated)
        if social > 0 { candidates.formUnion(profile.friendSignals.keys) }
        let scored = candidates.lazy.filter { Self.isCandidate($0, profile, options) }.map { ($0, terms($0)) }.filter { $0.1.score > 0 }
        guard let limit else { return scored.sorted(by: Self.ranksBefore) }
        return scored.best(limit, by: Self.ranksBefore)
    }

    static func ranksBefore(_ a: (movieId: Int64, terms: Terms), _ b: (movieId: Int64, terms: Terms)) -> Bool {
        a.terms.score != b.terms.score ? a.terms.score > b.terms.score : a.movieId < b.movieId
    }

    func terms(_ movieId: Int64) -> Terms {
        let c = personalisation, own = 1 - social
        var terms = Terms()
        if let j = scorer.model.index[movieId], largestPersonal > 0, personal[j] + similar[j] > 0 {
            let total = personal[j] + similar[j]
            let term = own * c * (1 - scorer.genreShare) * min(1, total / largestPersonal)
            // Each part is its films' net sum (item–item weights can be negative). A part at or below
            // zero is netted into the other, which alone shows, with the net.
            if personal[j] <= 0 {
                terms.similar = term
            } else if similar[j] <= 0 {
                terms.personal = term
            } else {
                terms.personal = term * personal[j] / total
                terms.similar = term * similar[j] / total
            }
        }
        terms.genre = own * c * scorer.genreShare * genreMatch(movieId)
        if scorer.mostRatings > 0 {
            terms.popular = own * (1 - c) * Double(scorer.catalog.ratingCounts[movieId] ?? 0) / Double(scorer.mostRatings)
        }
        terms.social = social * min(1, Double(friends(movieId).count) / Scorer.friendsForFullSocial)
        return terms
    }

    func genreMatch(_ movieId: Int64) -> Double {
        let genres = scorer.catalog.genres[movieId] ?? []
        guard !genres.isEmpty else { return 0 }
        return genres.reduce(0) { $0 + (genreAffinity[$1] ?? 0) } / Double(genres.count)
    }

    /// Distinct friends with a signal on the film, recommenders first, then the most recent.
    func friends(_ movieId: Int64) -> [TasteProfile.FriendSignal] {
        var seen = Set<Int64>()
        return (profile.friendSignals[movieId] ?? [])
            .sorted { $0.recommended != $1.recommended ? $0.recommended : $0.position > $1.position }
            .filter { seen.insert($0.friendId).inserted }
    }
}
