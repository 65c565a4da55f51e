import HTTPServing
import Foundation
import Logging
import NuvieAPI
import NuvieProjections
import NuvieRecommendations
import ReadModels

/// One user's profile, ratings and friends' feed from a read database, as JSON: what `nuvie as-of
/// --user` prints, and what `nuvie-bench as-of` times.
public enum UserSnapshot {
    public static func json(user: Int64, database: ReadDatabase, position: UInt64, recommendations: [Recommendation]?) throws -> String {
        let queries = UserQueries(database: database)
        let snapshot = Snapshot(
            position: position,
            profile: try queries.profile(id: user).map(Profile.init),
            ratings: try queries.ratings(of: user).map { Rating(movieId: $0.movieId, rating: $0.rating, ratedAt: NuvieJSON.timestamp(epochSeconds: $0.ratedAt)) },
            feed: try ActivityQueries(database: database).friendsActivity(of: user, kind: nil, limit: 20, offset: 0).items.map {
                FeedItem(activityId: $0.activityId, userId: $0.userId, movieId: $0.movieId, type: $0.kind.rawValue)
            },
            recommendations: recommendations
        )
        let encoder = NuvieJSON.encoder()
        encoder.outputFormatting.formUnion([.sortedKeys, .prettyPrinted])
        return String(decoding: try encoder.encode(snapshot), as: UTF8.self)
    }

    /// What we would have recommended then: a model trained on these read models, the top 10 with
    /// their reasons (empty when the model has nothing for the user).
    public static func recommendations(user: Int64, database: ReadDatabase) async throws -> [Recommendation] {
        let recommender = Recommender(inputs: RecommendationInputQueries(database: database), logger: Logger(label: "nuvie.as-of"))
        try recommender.train()
        guard let list = try? await recommender.recommend(RecommendQuery(requestId: "as-of", userId: user, limit: 10)) else { return [] }
        return list.items.map {
            Recommendation(
                movieId: $0.movieId, aiScore: $0.aiScore, primaryReason: $0.explanation.primaryReason.rawValue,
                reasons: $0.explanation.factors.map(\.description)
            )
        }
    }

    struct Snapshot: Encodable {
        var position: UInt64
        @Nullable var profile: Profile?
        var ratings: [Rating]
        var feed: [FeedItem]
        /// Only when asked for (`--recommendations`).
        var recommendations: [Recommendation]?
    }

    struct Profile: Encodable, Sendable {
        var userId: Int64
        var name: String
        @Nullable var bio: String?
        var favoriteGenres: [String]
        var watchedCount, friendsCount, ratingsCount, favoritesCount: Int

        init(_ profile: UserProfile) {
            userId = profile.userId
            name = profile.name
            bio = profile.bio
            favoriteGenres = profile.favoriteGenres
            watchedCount = profile.watchedCount
            friendsCount = profile.friendsCount
            ratingsCount = profile.ratingsCount
            favoritesCount = profile.favoritesCount
        }
    }

    struct Rating: Encodable {
        var movieId: Int64
        var rating: Double
        var ratedAt: String
    }

    struct FeedItem: Encodable {
        var activityId, userId, movieId: Int64
        var type: String
    }

    public struct Recommendation: Encodable, Sendable {
        var movieId: Int64
        var aiScore: Int
        var primaryReason: String
        var reasons: [String]
    }
}
