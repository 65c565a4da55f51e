import NuvieMovieLens
import SeededRandom

/// New users, held out whole: a seeded fifth of the file's users, none of whose ratings the models
/// of their rows are trained on (those learn from the other users' training part). Of each new user
/// only their first 3, 5 or 10 ratings (in time order) are known, and the films they rated next
/// (their next 10) are the ones to find: what someone who has just joined goes on to watch. The
/// split's own cold-start rows ask instead for the last fifth of a user whose earlier ratings trained
/// the model, often years after their first.
public struct NewUsers: Sendable {
    public static let share = 0.2
    public static let next = 10
    /// Each new user's ratings, in time order (then film id).
    let ratings: [Int64: [RatingRecord]]

    public init(_ all: [RatingRecord], seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let users = Set(all.map(\.userId)).sorted().shuffled(using: &generator)
        let chosen = Set(users.prefix(Int((Double(users.count) * Self.share).rounded(.toNearestOrEven))))
        var ratings: [Int64: [RatingRecord]] = [:]
        for rating in all where chosen.contains(rating.userId) { ratings[rating.userId, default: []].append(rating) }
        self.ratings = ratings.mapValues { $0.sorted { ($0.timestamp, $0.movieId) < ($1.timestamp, $1.movieId) } }
    }

    /// The new users with more than `first` ratings, each with the films they rated next.
    public func next(after first: Int) -> [Int64: Set<Int64>] {
        ratings.filter { $0.value.count > first }.mapValues { Set($0.dropFirst(first).prefix(Self.next).map(\.movieId)) }
    }
}

extension OfflineEvaluation {
    /// Popular, item-kNN, plain EASE and served for the new users at each of `coldStartHistories`,
    /// named `… (new, first k)`.
    func newUserRows(_ newUsers: NewUsers) throws -> [Result] {
        let train = split.train.filter { newUsers.ratings[$0.userId] == nil }
        let history = History(train)
        let known = History(newUsers.ratings.values.flatMap { $0 })
        let knn = ItemKNN(userMovies: history.userMovies, movieIds: history.counts.keys.sorted())
        let ease = try Self.trained(train, constants.ease)
        let scorer = servedScorer(try Self.trained(train, constants.model, reusing: [ease]), history)
        return Self.coldStartHistories.flatMap { first in
            let relevant = newUsers.next(after: first)
            let users = relevant.keys.sorted()
            let seeds = { @Sendable (user: Int64) in known.ratingsOf(user).prefix(first).map(\.movieId) }
            let name = { (model: String) in "\(model) (new, first \(first))" }
            return [
                measure(name("popular"), users, relevant: relevant) { history.popular(excluding: Set(seeds($0))) },
                measure(name("item-knn"), users, relevant: relevant) { knn.top(seeds($0), limit: Self.cutoff) },
                measure(name("ease"), users, relevant: relevant) { ease.top(seeds: seeds($0), limit: Self.cutoff) },
                measure(name("served"), users, relevant: relevant) {
                    scorer.topMovieIds(known.profile($0, genres: movies.genres, first: first), limit: Self.cutoff)
                },
            ]
        }
    }
}
