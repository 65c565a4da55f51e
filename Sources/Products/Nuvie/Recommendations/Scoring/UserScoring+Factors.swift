import Foundation

extension UserScoring {
    func scored(_ movieId: Int64, terms: Terms) -> ScoredMovie {
        let score = terms.score
        var factors: [Factor] = []
        func share(_ term: Double) -> Double { (term / score * 10_000).rounded() / 10_000 }
        // Looked up once for both factors that cite seeds.
        let column = terms.personal > 0 || terms.similar > 0 ? scorer.model.index[movieId].map { FilmColumn(index: $0, sequence: scorer.model.sequence.row($0)) } : nil
        if terms.personal > 0 { factors.append(becauseYouRated(column, weight: share(terms.personal))) }
        if terms.similar > 0 { factors.append(similarUsers(column, weight: share(terms.similar))) }
        if terms.genre > 0 { factors.append(genreMatchFactor(movieId, weight: share(terms.genre))) }
        if terms.popular > 0 { factors.append(popularFactor(movieId, weight: share(terms.popular))) }
        if terms.social > 0 { factors.append(friendActivity(movieId, weight: share(terms.social))) }
        factors.sort { $0.weight > $1.weight }
        return ScoredMovie(
            movieId: movieId, score: min(1, score),
            explanation: Explanation(
                primaryReason: factors.first?.type ?? .popular, confidence: (personalisation * 100).rounded() / 100, factors: factors
            )
        )
    }

    func becauseYouRated(_ column: FilmColumn?, weight: Double) -> Factor {
        let (contributing, strongest, cited, titles) = contributions(of: likedRows, to: column)
        return Factor(
            type: .becauseYouRated, weight: weight, value: contributing.count, seedMovieIds: cited.map(\.film),
            evidenceEventIds: evidence(strongest.compactMap { profile.ratings[$0.film]?.position }),
            description: "Because you liked " + listed(titles, more: contributing.count - titles.count)
        )
    }

    func similarUsers(_ column: FilmColumn?, weight: Double) -> Factor {
        let (contributing, strongest, cited, titles) = contributions(of: otherRows, to: column)
        var did: [String] = []
        if contributing.contains(where: { $0.signal == nil }) { did.append("rated") }
        for kind in [TasteProfile.Signal.Kind.finished, .saved] where contributing.contains(where: { $0.signal?.kind == kind }) {
            did.append(kind.rawValue)
        }
        return Factor(
            type: .similarUsers, weight: weight, value: contributing.count,
            ratedMovieIds: cited.filter { $0.signal == nil }.map(\.film), signalMovieIds: cited.filter { $0.signal != nil }.map(\.film),
            evidenceEventIds: evidence(strongest.compactMap { $0.signal?.position ?? profile.ratings[$0.film]?.position }),
            description: "People who watched " + listed(titles, more: contributing.count - titles.count) + ", which you "
                + did.joined(separator: " or ") + ", also watched this"
        )
    }

    /// A recommended film's column in the model, with its sequence row: the sequence weights are
    /// symmetric, so that row holds what every seed adds to the film.
    struct FilmColumn {
        let index: Int
        let sequence: [Double]
    }

    /// The rows among `rows` that add to the score of the film in `column` (nil when the model does not
    /// cover it); the ten that add most, largest first (picked without sorting the rest: a long history
    /// has thousands); the first five cited, the first two by title.
    func contributions(of rows: [SeedRow], to column: FilmColumn?) -> (contributing: [SeedRow], strongest: [SeedRow], cited: [SeedRow], titles: [String]) {
        var contributing: [(seed: SeedRow, weight: Double)] = []
        if let column {
            for seed in rows {
                let weight = scorer.model.weight(row: seed.row, column: column.index) * seed.weight * weightScale
                    + column.sequence[seed.row] * seed.share * (everySequenceScale + seed.recency * recentSequenceScale)
                if weight > 0 { contributing.append((seed, weight)) }
            }
        }
        let strongest = contributing.best(10) { $0.weight != $1.weight ? $0.weight > $1.weight : $0.seed.film < $1.seed.film }.map(\.seed)
        let cited = Array(strongest.prefix(5))
        return (contributing.map(\.seed), strongest, cited, cited.prefix(2).map { displayTitle(scorer.catalog.titles[$0.film] ?? "film \($0.film)") })
    }

    func genreMatchFactor(_ movieId: Int64, weight: Double) -> Factor {
        let liked = (scorer.catalog.genres[movieId] ?? [])
            .filter { (genreAffinity[$0] ?? 0) > 0 }
            .sorted { (genreAffinity[$0] ?? 0, $1) > (genreAffinity[$1] ?? 0, $0) }
        let percent = Int((genreMatch(movieId) * 100).rounded())
        return Factor(
            type: .genreMatch, weight: weight, value: percent, genres: liked,
            description: "\(percent)% match with your taste in " + listed(Array(liked.prefix(2)), more: 0)
        )
    }

    func popularFactor(_ movieId: Int64, weight: Double) -> Factor {
        let count = scorer.catalog.ratingCounts[movieId] ?? 0
        let people = count == 1 ? "1 person" : "\(count) people"
        return Factor(
            type: .popular, weight: weight, value: count,
            description: "Rated by \(people): based on what's popular while we learn your taste"
        )
    }

    func friendActivity(_ movieId: Int64, weight: Double) -> Factor {
        let signals = friends(movieId)
        let recommenders = signals.filter(\.recommended), raters = signals.filter { !$0.recommended }
        func phrase(_ group: [TasteProfile.FriendSignal], _ verb: String) -> String? {
            switch group.count {
            case 0: nil
            case 1: "\(profile.friendNames[group[0].friendId] ?? "A friend") \(verb)"
            default: "\(group.count) friends \(verb)"
            }
        }
        let parts = [phrase(recommenders, "recommended this to you"), phrase(raters, "rated this highly")].compactMap { $0 }
        return Factor(
            type: .friendActivity, weight: weight, value: signals.count, friendUserIds: signals.map(\.friendId),
            evidenceEventIds: evidence(signals.map(\.position)), description: parts.joined(separator: "; ")
        )
    }

    /// MovieLens files "The Matrix" as "Matrix, The": a sentence wants it the right way round.
    func displayTitle(_ title: String) -> String {
        for article in ["The", "A", "An"] {
            let suffix = ", \(article)"
            if title.hasSuffix(suffix) { return "\(article) \(title.dropLast(suffix.count))" }
        }
        return title
    }

    func evidence(_ positions: [UInt64]) -> [UInt64] {
        Array(positions.filter { $0 > 0 }.prefix(10))
    }

    func listed(_ names: [String], more: Int) -> String {
        switch (names.count, more) {
        case (0, _): "films like this"
        case (1, 0): names[0]
        case (2, 0): "\(names[0]) and \(names[1])"
        default: names.joined(separator: ", ") + " and \(more) more"
        }
    }
}
