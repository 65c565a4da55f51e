import Foundation
import NuvieMovieLens
import NuvieProjections

/// Top-10 quality of three recommenders on one split: most popular, plain item-kNN (cosine, k = 20)
/// and the served model (`Scorer` over `ItemSimilarityModel`, without social signals: the ratings
/// file has no friends).
public struct OfflineEvaluation: Sendable {
    public struct Result: Sendable, Equatable {
        public var model: String
        public var precision: Double
        public var recall: Double
        public var ndcg: Double
        public var hitRate: Double
        /// Distinct films recommended to anyone / films in the ratings file.
        public var coverage: Double
        public var users: Int
        /// Wall time to rank one user's top 10, after training.
        public var millisecondsPerUser: Double
    }

    public static let cutoff = 10

    public let split: Split
    public let movies: (titles: [Int64: String], genres: [Int64: [String]])
    public let parameters: ItemSimilarityModel.Parameters
    let catalogSize: Int

    public init(ratings: [RatingRecord], split kind: Split.Kind, seed: UInt64 = 42,
                movies: (titles: [Int64: String], genres: [Int64: [String]]) = ([:], [:]),
                parameters: ItemSimilarityModel.Parameters = .init()) {
        split = Split(ratings, kind: kind, seed: seed)
        self.movies = movies
        self.parameters = parameters
        catalogSize = Set(ratings.map(\.movieId)).count
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> [Result] {
        var userMovies: [Int64: [Int64]] = [:]
        var counts: [Int64: Int] = [:]
        for rating in split.train {
            userMovies[rating.userId, default: []].append(rating.movieId)
            counts[rating.movieId, default: 0] += 1
        }
        let users = split.test.keys.sorted()

        progress("popular")
        let byPopularity = counts.keys.sorted { (counts[$0] ?? 0, $1) > (counts[$1] ?? 0, $0) }
        let popular = measure("popular", users) { userId in
            let own = Set(userMovies[userId] ?? [])
            return Array(byPopularity.lazy.filter { !own.contains($0) }.prefix(Self.cutoff))
        }

        progress("item-knn: similarities")
        let knn = ItemKNN(userMovies: userMovies, movieIds: counts.keys.sorted())
        progress("item-knn: ranking")
        let itemKNN = measure("item-knn", users) { knn.top(userMovies[$0] ?? [], limit: Self.cutoff) }

        progress("served: training")
        let model = try ItemSimilarityModel.train(split.train.map { ($0.userId, $0.movieId) }, parameters: parameters)
        let scorer = Scorer(model: model, catalog: CatalogSnapshot(titles: movies.titles, genres: movies.genres, ratingCounts: counts))
        let profiles = profiles()
        progress("served: ranking")
        let served = measure("served", users) { scorer.topMovieIds(profiles[$0] ?? TasteProfile(ratings: [:], likedByGenre: [:]), limit: Self.cutoff) }
        return [popular, itemKNN, served]
    }

    private func profiles() -> [Int64: TasteProfile] {
        var byUser: [Int64: TasteProfile] = [:]
        for rating in split.train {
            var profile = byUser[rating.userId] ?? TasteProfile(ratings: [:], likedByGenre: [:])
            let rated = TasteProfile.Rated(rating: rating.rating, position: 0)
            profile.ratings[rating.movieId] = rated
            if rated.liked { for genre in movies.genres[rating.movieId] ?? [] { profile.likedByGenre[genre, default: 0] += 1 } }
            byUser[rating.userId] = profile
        }
        return byUser
    }

    private func measure(_ name: String, _ users: [Int64], top: (Int64) -> [Int64]) -> Result {
        var precision = 0.0, recall = 0.0, ndcg = 0.0, hits = 0.0
        var recommended = Set<Int64>()
        let clock = ContinuousClock(), start = clock.now
        var lists: [Int64: [Int64]] = [:]
        for userId in users { lists[userId] = top(userId) }
        let elapsed = clock.now - start
        for userId in users {
            let relevant = split.test[userId] ?? []
            let list = lists[userId] ?? []
            recommended.formUnion(list)
            let found = list.filter(relevant.contains).count
            precision += Double(found) / Double(Self.cutoff)
            recall += Double(found) / Double(relevant.count)
            hits += found > 0 ? 1 : 0
            let dcg = list.enumerated().reduce(0.0) { $0 + (relevant.contains($1.element) ? 1 / log2(Double($1.offset + 2)) : 0) }
            let ideal = (0..<min(relevant.count, Self.cutoff)).reduce(0.0) { $0 + 1 / log2(Double($1 + 2)) }
            ndcg += dcg / ideal
        }
        let n = Double(max(users.count, 1))
        return Result(
            model: name, precision: precision / n, recall: recall / n, ndcg: ndcg / n, hitRate: hits / n,
            coverage: Double(recommended.count) / Double(max(catalogSize, 1)), users: users.count,
            millisecondsPerUser: elapsed.seconds * 1000 / n
        )
    }
}
