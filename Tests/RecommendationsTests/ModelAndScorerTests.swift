import Foundation
import NuvieRecommendations
import Testing

/// Two taste groups: users 1–6 rate films 1–4, users 7–12 rate films 5–8; everyone rates film 9.
private let interactions: [(userId: Int64, movieId: Int64)] = {
    var pairs: [(userId: Int64, movieId: Int64)] = []
    for user in Int64(1)...12 {
        let films: [Int64] = user <= 6 ? [1, 2, 3, 4] : [5, 6, 7, 8]
        for film in films where (film + user) % 4 != 0 { pairs.append((user, film)) }
        pairs.append((user, 9))
    }
    return pairs
}()

private let catalog = CatalogSnapshot(
    titles: Dictionary(uniqueKeysWithValues: (1...9).map { (Int64($0), "Film \($0)") }),
    genres: Dictionary(uniqueKeysWithValues: (1...9).map { (Int64($0), $0 <= 4 ? ["Sci-Fi"] : $0 <= 8 ? ["Drama"] : ["Comedy"]) }),
    ratingCounts: Dictionary(grouping: interactions, by: \.movieId).mapValues(\.count)
)

private func profile(_ ratings: [Int64: Double], friends: [Int64: [TasteProfile.FriendSignal]] = [:], friendCount: Int = 0) -> TasteProfile {
    var likedByGenre: [String: Int] = [:]
    for (movieId, rating) in ratings where rating >= 4 { for genre in catalog.genres[movieId] ?? [] { likedByGenre[genre, default: 0] += 1 } }
    return TasteProfile(
        ratings: ratings.mapValues { .init(rating: $0, position: 0) }, likedByGenre: likedByGenre, friendCount: friendCount,
        friendSignals: friends, friendNames: [100: "Sarah", 101: "Tom", 102: "Ana"]
    )
}

@Suite(.timeLimit(.minutes(3))) struct ItemSimilarityModelTests {
    @Test func trainingIsDeterministicAndDropsNegativeWeightsWhenAsked() throws {
        let parameters = ItemSimilarityModel.Parameters(minimumRatings: 1, lambda: 1)
        let first = try ItemSimilarityModel.train(interactions, parameters: parameters)
        let second = try ItemSimilarityModel.train(interactions.reversed(), parameters: parameters)
        #expect(first == second)
        #expect(first.movieIds == Array(1...9))
        #expect(first.weight(from: 1, to: 1) == 0)
        #expect(first.movieIds.contains { a in first.movieIds.contains { first.weight(from: a, to: $0) < 0 } })
        let dropped = try ItemSimilarityModel.train(interactions, parameters: .init(minimumRatings: 1, lambda: 1, keepsNegativeWeights: false))
        for a in dropped.movieIds {
            for b in dropped.movieIds { #expect(dropped.weight(from: a, to: b) == max(0, first.weight(from: a, to: b))) }
        }
    }

    /// EASE's B = −P / diag(P), P = (XᵀX + λI)⁻¹, in double precision here: the model's 16-bit
    /// weights are those to within what 16 bits of C = D^−½·P·D^−½ hold.
    @Test func theWeightsAreEASEs() throws {
        let model = try ItemSimilarityModel.train(interactions, parameters: .init(minimumRatings: 1, lambda: 1))
        let films = model.movieIds, n = films.count
        var gram = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        for movies in Dictionary(grouping: interactions, by: \.userId).values.map({ $0.map(\.movieId) }) {
            for a in movies { for b in movies { gram[Int(a) - 1][Int(b) - 1] += 1 } }
        }
        for i in 0..<n { gram[i][i] += 1 }
        let inverse = invert(gram)
        for i in 0..<n {
            for j in 0..<n where i != j {
                let ease = -inverse[i][j] / inverse[j][j]
                let bound = (inverse[i][i] / inverse[j][j]).squareRoot() / Double(Int16.max)
                #expect(abs(model.weight(from: films[i], to: films[j]) - ease) <= bound, "\(films[i]) → \(films[j])")
            }
        }
    }

    @Test func filmsRatedTogetherLinkAndGroupsStayApart() throws {
        let model = try ItemSimilarityModel.train(interactions, parameters: .init(minimumRatings: 1, lambda: 1))
        #expect(model.weight(from: 1, to: 2) > 0)
        #expect(model.weight(from: 5, to: 6) > 0)
        #expect(model.weight(from: 1, to: 5) <= 0)
    }

    @Test func rarelyRatedFilmsAreLeftOut() throws {
        let model = try ItemSimilarityModel.train(interactions + [(99, 42)], parameters: .init(minimumRatings: 2, lambda: 1))
        #expect(!model.covers(42))
        #expect(model.covers(9))
    }

    /// Film 9 is rated 12 times; films 1, 4, 6 and 7 five times; the rest four.
    @Test func pastTheBoundOnlyTheMostRatedFilmsAreKept() throws {
        let model = try ItemSimilarityModel.train(interactions, parameters: .init(minimumRatings: 1, lambda: 1, maximumFilms: 3))
        #expect(model.movieIds == [1, 4, 9])
        #expect(model.weightBytes == 6 * MemoryLayout<Int16>.stride + 3 * MemoryLayout<Double>.stride + model.sequence.bytes)
        #expect(try ItemSimilarityModel.train(interactions, parameters: .init(minimumRatings: 1, lambda: 1, maximumFilms: 9)).count == 9)
    }
}

/// Gauss–Jordan, for a small well-conditioned matrix.
private func invert(_ matrix: [[Double]]) -> [[Double]] {
    let n = matrix.count
    var rows = matrix.enumerated().map { i, row in row + (0..<n).map { $0 == i ? 1.0 : 0 } }
    for column in 0..<n {
        let pivot = (column..<n).max { abs(rows[$0][column]) < abs(rows[$1][column]) } ?? column
        rows.swapAt(column, pivot)
        let divisor = rows[column][column]
        rows[column] = rows[column].map { $0 / divisor }
        for row in 0..<n where row != column {
            let factor = rows[row][column]
            rows[row] = zip(rows[row], rows[column]).map { $0 - factor * $1 }
        }
    }
    return rows.map { Array($0[n...]) }
}

@Suite(.timeLimit(.minutes(3))) struct ScorerTests {
    let scorer: Scorer

    init() throws {
        scorer = Scorer(model: try ItemSimilarityModel.train(interactions, parameters: .init(minimumRatings: 1, lambda: 1)), catalog: catalog)
    }

    /// Two clusters that mirror each other: films 1–3 (Sci-Fi) and 5–7 (Drama), 2 mirroring 6.
    static func mirroredClusters(fullHistory: Double = Scorer.defaultFullHistory) throws -> Scorer {
        var pairs: [(userId: Int64, movieId: Int64)] = []
        for user in Int64(1)...12 {
            for film: Int64 in user <= 6 ? [1, 2, 3] : [5, 6, 7] { pairs.append((user, film)) }
        }
        let counts = Dictionary(grouping: pairs.map(\.movieId), by: { $0 }).mapValues(\.count)
        return Scorer(
            model: try ItemSimilarityModel.train(pairs, parameters: .init(minimumRatings: 1, lambda: 1)),
            catalog: CatalogSnapshot(titles: [:], genres: [:], ratingCounts: counts), fullHistory: fullHistory
        )
    }

    /// What comes next follows what the user rated last: of two liked films, the newer one's
    /// neighbours score higher, and which do flips with the order they were rated in.
    @Test func theNewestLikedFilmsCountMost() throws {
        // Four ratings are a full history here: the personal term is the whole score, so how much
        // more the newer film counts shows in `ai_score` and not only in its decimals.
        let mirrored = try Self.mirroredClusters(fullHistory: 4)
        func aiScores(sciFiFirst: Bool) -> (sciFi: Int, drama: Int) {
            let (older, newer): (Int64, Int64) = sciFiFirst ? (1, 5) : (5, 1)
            // A film each cluster's user did not like, in the same order as the liked ones.
            let (olderOther, newerOther) = (older + 2, newer + 2)
            let ratings: [Int64: TasteProfile.Rated] = [
                older: .init(rating: 5, position: 10), olderOther: .init(rating: 2, position: 15), newerOther: .init(rating: 2, position: 20),
                newer: .init(rating: 5, position: 30),
            ]
            let scoring = mirrored.prepare(TasteProfile(ratings: ratings, likedByGenre: [:]), options: .init(useSocial: false))
            return (scoring.scores(2).aiScore, scoring.scores(6).aiScore)
        }
        let dramaLast = aiScores(sciFiFirst: true), sciFiLast = aiScores(sciFiFirst: false)
        #expect(dramaLast.drama > dramaLast.sciFi, "Drama was liked last: \(dramaLast)")
        #expect(sciFiLast.sciFi > sciFiLast.drama, "Sci-Fi was liked last: \(sciFiLast)")
        #expect(dramaLast.drama == sciFiLast.sciFi && dramaLast.sciFi == sciFiLast.drama, "mirror images: \(dramaLast), \(sciFiLast)")
    }

    /// Recency never silences a liked film: one liked 40 ratings ago still counts at least the floor
    /// of its item–item weights and q / (q + r) of its sequence weights, so a user whose held-out films
    /// are not their newest (a random split) is not reduced to their last few.
    @Test func aFilmLikedLongAgoStillCountsAtLeastTheFloor() throws {
        let mirrored = try Self.mirroredClusters()
        var ratings: [Int64: TasteProfile.Rated] = [1: .init(rating: 5, position: 1), 5: .init(rating: 5, position: 100)]
        for n in Int64(0)..<40 { ratings[1_000 + n] = .init(rating: 2, position: UInt64(10 + n)) }
        let scoring = mirrored.prepare(TasteProfile(ratings: ratings, likedByGenre: [:]), options: .init(useSocial: false))
        let old = scoring.scores(2).aiScore, new = scoring.scores(6).aiScore
        let floor = min(mirrored.recencyFloor, mirrored.sequenceWeight / (mirrored.sequenceWeight + mirrored.recentSequenceWeight))
        #expect(floor > 0 && mirrored.recencyHalfLife != nil)
        #expect(old < new && Double(old) >= Double(new) * floor - 1, "old \(old), new \(new)")
        #expect(mirrored.explain(TasteProfile(ratings: ratings, likedByGenre: [:]), movieId: 2).explanation.factors.first?.seedMovieIds == [1])
    }

    @Test func weightsAreSharesOfTheScoreAndSumToOne() {
        let user = profile([1: 5, 2: 4, 3: 5, 5: 2])
        let page = scorer.recommend(user, limit: 10)
        #expect(!page.items.isEmpty)
        for item in page.items {
            #expect((0...1).contains(item.score))
            #expect(!item.explanation.factors.isEmpty)
            let sum = item.explanation.factors.map(\.weight).reduce(0, +)
            #expect(abs(sum - 1) <= 0.0001 * Double(item.explanation.factors.count))
            #expect(item.explanation.primaryReason == item.explanation.factors[0].type)
        }
    }

    @Test func ratedFilmsAreNotRecommendedAndSeedsAreFilmsTheUserLiked() {
        let user = profile([1: 5, 2: 4, 5: 2, 6: 3])
        let items = scorer.recommend(user, limit: 10).items
        #expect(items.allSatisfy { user.ratings[$0.movieId] == nil })
        // Liking films of the first group speaks for the rest of it, not for the other group.
        #expect(scorer.explain(user, movieId: 4).explanation.factors.contains { $0.type == .becauseYouRated })
        #expect(!scorer.explain(user, movieId: 7).explanation.factors.contains { $0.type == .becauseYouRated })
        for factor in items.flatMap(\.explanation.factors) where factor.type == .becauseYouRated {
            #expect(Set(factor.seedMovieIds).isSubset(of: [1, 2]))
            #expect(factor.value == factor.seedMovieIds.count)
        }
    }

    /// The personal term is two net sums, one over the films the user liked (because_you_rated) and one
    /// over the others they rated, times a (similar_users); each factor's weight is its sum's share,
    /// and a sum at or below zero is netted into the other, which alone shows. Recomputed here from the
    /// model's item–item weights, film by film (sequence weights off: `RecommendationFeedTests`
    /// recomputes the sums with them).
    @Test func filmsRatedButNotLikedSpeakAsSimilarUsersWithTheirShare() throws {
        let plain = Scorer(model: scorer.model, catalog: catalog, recencyHalfLife: nil, sequenceWeight: 0, recentSequenceWeight: 0)
        let liked: [Int64] = [1, 2], others: [Int64] = [3, 6]
        let user = profile([1: 5, 2: 4, 3: 2, 6: 2.5])
        func net(_ films: [Int64], to movieId: Int64) -> Double { films.reduce(0) { $0 + plain.model.weight(from: $1, to: movieId) } }
        var sawBoth = false
        for movieId: Int64 in [4, 5, 7, 8, 9] {
            let factors = plain.explain(user, movieId: movieId, options: .init(useSocial: false)).explanation.factors
            let because = factors.first { $0.type == .becauseYouRated }, similar = factors.first { $0.type == .similarUsers }
            let fromLiked = net(liked, to: movieId), fromOthers = plain.otherRatingsWeight * net(others, to: movieId)
            switch (fromLiked + fromOthers > 0, fromLiked > 0, fromOthers > 0) {
            case (false, _, _): #expect(because == nil && similar == nil, "film \(movieId)")
            case (true, true, true):
                sawBoth = true
                let because = try #require(because), similar = try #require(similar)
                #expect(abs(because.weight / (because.weight + similar.weight) - fromLiked / (fromLiked + fromOthers)) < 0.001, "film \(movieId)")
            case (true, true, false): #expect(because != nil && similar == nil, "film \(movieId)")
            case (true, false, _): #expect(because == nil && similar != nil, "film \(movieId)")
            }
            if let similar {
                #expect(!similar.ratedMovieIds.isEmpty && Set(similar.ratedMovieIds).isSubset(of: others))
                #expect(similar.description.hasPrefix("People who watched Film "))
            }
            if let because { #expect(Set(because.seedMovieIds).isSubset(of: liked)) }
        }
        #expect(sawBoth)
        let withoutOthers = Scorer(model: scorer.model, catalog: catalog, recencyHalfLife: nil, otherRatingsWeight: 0)
        #expect(withoutOthers.recommend(user, limit: 10).items.flatMap(\.explanation.factors).allSatisfy { $0.type != .similarUsers })
    }

    /// Films 1 and 2 liked; film 3 finished and film 4 saved, neither rated: they speak for their
    /// neighbours as `similar_users`, citing the events, and count in how far the score is personal.
    @Test func filmsFinishedOrSavedWithoutARatingSpeakAsSimilarUsers() throws {
        var user = profile([1: 5, 2: 5])
        user.completed = [3]
        user.signals = [3: .init(.finished, position: 30), 4: .init(.saved, position: 40)]
        let without = scorer.explain(profile([1: 5, 2: 5]), movieId: 5)
        #expect(without.explanation.confidence == 0, "two ratings alone are a cold start")
        let explained = scorer.explain(user, movieId: 1_000)
        #expect(explained.explanation.confidence == 0.2, "four films known of twenty")

        let similar = try #require(scorer.explain(user, movieId: 9).explanation.factors.first { $0.type == .similarUsers })
        let contributing = [Int64(3), 4].filter { scorer.model.weight(from: $0, to: 9) > 0 }
        #expect(contributing.count == 2, "films 3 and 4 are both in film 9's neighbourhood")
        #expect(Set(similar.signalMovieIds) == Set(contributing) && similar.ratedMovieIds.isEmpty, "\(similar)")
        #expect(Set(similar.evidenceEventIds) == Set(contributing.map { $0 == 3 ? UInt64(30) : 40 }))
        let did = contributing.map { $0 == 3 ? "finished" : "saved" }.joined(separator: " or ")
        #expect(similar.description.hasSuffix(", which you \(did), also watched this"), "\(similar.description)")
        #expect(!scorer.recommend(user, limit: 10).items.contains { $0.movieId == 3 }, "a finished film is not recommended")

        let ignoring = Scorer(model: scorer.model, catalog: catalog, signalWeight: 0)
        #expect(ignoring.recommend(user, limit: 10).items.flatMap(\.explanation.factors).allSatisfy { $0.type != .similarUsers })
        var rated = user
        rated.ratings[3] = .init(rating: 5, position: 31)
        let asRated = scorer.explain(rated, movieId: 9).explanation
        #expect(asRated.confidence == 0.2, "film 3 counted once")
        #expect(asRated.factors.first { $0.type == .similarUsers }?.signalMovieIds == [4], "a rated film speaks as a rating")
        #expect(asRated.factors.first { $0.type == .becauseYouRated }?.seedMovieIds.contains(3) == true)
        rated.ratings[3] = .init(rating: 2, position: 31)
        let notLiked = try #require(scorer.explain(rated, movieId: 9).explanation.factors.first { $0.type == .similarUsers })
        #expect(notLiked.ratedMovieIds == [3] && notLiked.signalMovieIds == [4], "finished, but rated: it speaks as its rating. \(notLiked)")
        #expect(Set(notLiked.evidenceEventIds) == [31, 40])
        #expect(notLiked.description.hasSuffix(", which you rated or saved, also watched this"), "\(notLiked.description)")
    }

    @Test func excludedAndFinishedFilmsAreLeftOut() {
        var user = profile([1: 5, 2: 4, 3: 4])
        user.completed = [4]
        let items = scorer.recommend(user, options: .init(exclude: [9]), limit: 10).items
        #expect(!items.contains { [4, 9].contains($0.movieId) })
    }

    @Test func coldStartIsPopularityAndSaysSo() {
        let user = profile([5: 5])
        let items = scorer.recommend(user, limit: 3).items
        #expect(items.first?.movieId == 9)
        for item in items {
            #expect(item.explanation.confidence == 0)
            #expect(item.explanation.factors.map(\.type) == [.popular])
            #expect(item.explanation.factors[0].description.contains("while we learn your taste"))
            #expect(item.explanation.factors[0].value == catalog.ratingCounts[item.movieId])
        }
    }

    /// Offline evaluation's top films, picked without sorting the rest, are the feed's first ones.
    @Test func theTopFilmsAreTheFeedsFirst() {
        for ratings: [Int64: Double] in [[5: 5], [1: 5, 2: 4, 3: 2], [1: 5, 2: 4, 3: 4, 5: 1, 6: 3], [:]] {
            let user = profile(ratings)
            for limit in 0...10 {
                let feed = scorer.recommend(user, options: .init(useSocial: false), limit: limit).items.map(\.movieId)
                #expect(scorer.topMovieIds(user, limit: limit) == feed, "\(ratings), \(limit)")
            }
        }
    }

    @Test func someoneWhoLikedNothingGetsPopularFilmsNotAnEmptyFeed() {
        let disliked = Dictionary(uniqueKeysWithValues: (1...8).map { (Int64($0), 2.0) })
        let items = scorer.recommend(profile(disliked), limit: 5).items
        #expect(items.map(\.movieId) == [9])
        #expect(items.allSatisfy { $0.explanation.factors.map(\.type) == [.popular] })
    }

    @Test func friendsSignalsNameExactlyThoseFriends() throws {
        let signals: [Int64: [TasteProfile.FriendSignal]] = [
            7: [.init(friendId: 100, position: 40, recommended: true), .init(friendId: 101, position: 41, recommended: false)],
        ]
        let user = profile([1: 5, 2: 4, 3: 5], friends: signals, friendCount: 3)
        let explained = scorer.explain(user, movieId: 7)
        let factor = try #require(explained.explanation.factors.first { $0.type == .friendActivity })
        #expect(factor.friendUserIds == [100, 101])
        #expect(factor.value == 2)
        #expect(factor.evidenceEventIds == [40, 41])
        #expect(factor.description == "Sarah recommended this to you; Tom rated this highly")
        #expect(explained.socialScore == 67)
        #expect(scorer.explain(user, movieId: 7, options: .init(useSocial: false)).explanation.factors.allSatisfy { $0.type != .friendActivity })
    }
}
