import NuvieMovieLens
import SeededRandom

/// Implicit signals measured (`nuvie eval --signals SHARE`). A ratings file has none, so they are
/// made from it: `share` of each user's training ratings (a seeded draw) become films the user
/// finished watching without rating them, their ratings hidden. The test part is untouched, and the
/// finished films are never recommended in any row. Three rows: those films unused (the model
/// trained on the ratings left, the user's seeds their ratings); as seeds too (`Scorer.signalWeight`);
/// and as seeds and in the model's training, as the server uses them (who watched what: rated or
/// finished, which are the training part's pairs: `watchedModel`, the served model trained on them). What it measures is what a finished film tells the model when its rating is missing;
/// how far a real app's watch history is like that, no ratings file says.
extension OfflineEvaluation {
    /// `training`: the training part's `History`.
    func signalRows(share: Double, seed: UInt64, history training: History, watchedModel: ItemSimilarityModel) throws -> [Result] {
        var generator = SplitMix64(seed: seed)
        var rated: [RatingRecord] = [], finished: [Int64: Set<Int64>] = [:]
        for (userId, ratings) in training.byUser.sorted(by: { $0.key < $1.key }) {
            let drawn = ratings.sorted { $0.movieId < $1.movieId }.shuffled(using: &generator)
            let hidden = Int((Double(drawn.count) * share).rounded(.down))
            finished[userId] = Set(drawn.prefix(hidden).map(\.movieId))
            rated += drawn.dropFirst(hidden)
        }
        let history = History(rated)
        let users = split.test.keys.sorted()
        let percent = Int((share * 100).rounded())
        let unrated = finished
        @Sendable func profile(_ userId: Int64, signals: Bool) -> TasteProfile {
            var profile = history.profile(userId, genres: movies.genres)
            profile.completed = unrated[userId] ?? []
            if signals { profile.signals = Dictionary(uniqueKeysWithValues: profile.completed.map { ($0, .init(.finished, position: 0)) }) }
            return profile
        }
        let onRatings = servedScorer(try Self.trained(rated, constants.model), history)
        let onWatches = servedScorer(watchedModel, history)
        let name = "served, \(percent)% of ratings only finished"
        return [
            measure("\(name): unused", users) { onRatings.topMovieIds(profile($0, signals: false), limit: Self.cutoff) },
            measure("\(name): seeds", users) { onRatings.topMovieIds(profile($0, signals: true), limit: Self.cutoff) },
            measure("\(name): seeds and training (as served)", users) { onWatches.topMovieIds(profile($0, signals: true), limit: Self.cutoff) },
        ]
    }
}
