import HTTPServing
import JSONText
import NuvieDomain
import Foundation
import Hummingbird
import NuvieProjections
import NuvieRecommendations

/// A factor as the contract writes it: `type`, `weight`, `value`, `payload`, `description`.
struct FactorDTO: Codable, Sendable {
    var type: String
    var weight: Double
    var value: JSONValue
    var payload: [String: JSONValue]
    /// Always written here; an AI service may leave it to the backend (the contract prefers the backend's, for i18n).
    var description: String?

    init(_ factor: Factor) {
        type = factor.type.rawValue
        weight = factor.weight
        value = .number(Double(factor.value))
        var payload: [String: JSONValue] = [:]
        func ids<T: BinaryInteger>(_ key: String, _ values: [T]) {
            if !values.isEmpty { payload[key] = .array(values.map { .number(Double($0)) }) }
        }
        ids("seed_movie_ids", factor.seedMovieIds)
        ids("rated_movie_ids", factor.ratedMovieIds)
        ids("signal_movie_ids", factor.signalMovieIds)
        ids("friend_user_ids", factor.friendUserIds)
        if !factor.genres.isEmpty { payload["genres"] = .array(factor.genres.map(JSONValue.string)) }
        ids("evidence_event_ids", factor.evidenceEventIds)
        self.payload = payload
        description = factor.description
    }

    /// Back from another AI service's JSON; unknown types are refused, unknown payload keys dropped.
    func factor() throws -> Factor {
        guard let type = FactorType(rawValue: type) else { throw RecommendationError.unavailable("unknown factor type \(type)") }
        func ids(_ key: String) -> [Int64] {
            guard case .array(let values)? = payload[key] ?? payload[camelCase(key)] else { return [] }
            return values.compactMap { if case .number(let n) = $0 { Int64(exactly: n) } else { nil } }
        }
        var genres: [String] = []
        if case .array(let values)? = payload["genres"] {
            genres = values.compactMap { if case .string(let s) = $0 { s } else { nil } }
        }
        var number = 0
        // A remote service's number, whatever it is, must not trap: out of range reads as 0.
        if case .number(let n) = value { number = Int(exactly: n.rounded()) ?? 0 }
        return Factor(
            type: type, weight: weight, value: number, seedMovieIds: ids("seed_movie_ids"), ratedMovieIds: ids("rated_movie_ids"),
            signalMovieIds: ids("signal_movie_ids"), friendUserIds: ids("friend_user_ids"),
            genres: genres, evidenceEventIds: ids("evidence_event_ids").map { UInt64(max(0, $0)) }, description: description ?? type.backendDescription
        )
    }

    private func camelCase(_ key: String) -> String {
        let parts = key.split(separator: "_")
        return (parts.first.map(String.init) ?? "") + parts.dropFirst().map { $0.capitalized }.joined()
    }
}

extension FactorType {
    /// The backend's words for a factor an AI service sent without its own.
    fileprivate var backendDescription: String {
        switch self {
        case .genreMatch: "Matches genres you like"
        case .becauseYouRated: "Because you liked similar movies"
        case .similarUsers: "Watched by people with tastes like yours"
        case .friendActivity: "Your friends liked this"
        case .trending: "Trending now"
        case .popular: "Popular with everyone"
        case .rules: "Picked for you"
        }
    }
}

struct ExplanationDTO: Codable, Sendable {
    var primaryReason: String
    var confidence: Double
    var factors: [FactorDTO]

    init(_ explanation: Explanation) {
        primaryReason = explanation.primaryReason.rawValue
        confidence = explanation.confidence
        factors = explanation.factors.map(FactorDTO.init)
    }

    func explanation() throws -> Explanation {
        guard let reason = FactorType(rawValue: primaryReason) else { throw RecommendationError.unavailable("unknown primary_reason \(primaryReason)") }
        return Explanation(primaryReason: reason, confidence: confidence, factors: try factors.map { try $0.factor() })
    }
}

struct ModelDTO: Codable, Sendable {
    var name: String
    var version: String
    var trainedAt: String
}

// MARK: POST /ai/recommend

struct AIRecommendRequestDTO: Encodable, Sendable {
    struct Context: Encodable, Sendable {
        var useSocial: Bool
        var seedMovieIds: [Int64]?

        private enum CodingKeys: String, CodingKey { case useSocial, seedMovieIds }

        /// `seed_movie_ids` is written `null` when there are none, as the contract's optional fields are.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(useSocial, forKey: .useSocial)
            try container.encode(seedMovieIds, forKey: .seedMovieIds)
        }
    }
    var requestId: String
    var userId: Int64
    var limit: Int
    var offset: Int
    var excludeMovieIds: [Int64]
    var context: Context

    init(_ query: RecommendQuery) {
        requestId = query.requestId
        userId = query.userId
        limit = query.limit
        offset = query.offset
        excludeMovieIds = query.excludeMovieIds.sorted()
        context = Context(useSocial: query.useSocial, seedMovieIds: query.seedMovieIds?.sorted())
    }
}

struct AIRecommendResponseDTO: ResponseCodable, Sendable {
    struct Item: Codable, Sendable {
        var movieId: Int64
        var score: Double
        var rank: Int
        var explanation: ExplanationDTO
    }
    var requestId: String
    var userId: Int64
    var model: ModelDTO
    var generatedAt: String
    var ttlSeconds: Int
    var items: [Item]

    init(_ list: RecommendationList) {
        requestId = list.requestId
        userId = list.userId
        model = ModelDTO(name: list.model.name, version: list.model.version, trainedAt: NuvieJSON.timestamp(list.model.trainedAt))
        generatedAt = NuvieJSON.timestamp(list.generatedAt)
        ttlSeconds = list.ttlSeconds
        items = list.items.enumerated().map { index, item in
            Item(movieId: item.movieId, score: (item.score * 10_000).rounded() / 10_000, rank: list.offset + index + 1, explanation: ExplanationDTO(item.explanation))
        }
    }

    func list(offset: Int) throws -> RecommendationList {
        guard let trainedAt = NuvieJSON.date(model.trainedAt), let generated = NuvieJSON.date(generatedAt) else {
            throw RecommendationError.unavailable("timestamps are not like 2024-01-15T10:30:00Z")
        }
        return RecommendationList(
            requestId: requestId, userId: userId, model: ModelInfo(name: model.name, version: model.version, trainedAt: trainedAt),
            generatedAt: generated, ttlSeconds: ttlSeconds,
            items: try items.map { ScoredMovie(movieId: $0.movieId, score: min(1, max(0, $0.score)), explanation: try $0.explanation.explanation()) },
            offset: offset
        )
    }
}

// MARK: POST /ai/explain

struct AIExplainRequestDTO: Encodable, Sendable {
    struct Context: Encodable, Sendable { var useSocial: Bool }
    var requestId: String
    var userId: Int64
    var movieId: Int64
    var context: Context

    init(_ query: ExplainQuery) {
        requestId = query.requestId
        userId = query.userId
        movieId = query.movieId
        context = Context(useSocial: query.useSocial)
    }
}

struct AIExplainResponseDTO: ResponseCodable, Sendable {
    struct Signals: Codable, Sendable {
        var friendRatingsCount: Int
        /// We send 0 when no friend rated the film; another AI service may send `null`.
        @Nullable var friendRatingsAvg: Double?
        var friendWatchCount: Int
    }
    var requestId: String
    var userId: Int64
    var movieId: Int64
    var aiScore: Int
    var explanation: ExplanationDTO
    var socialSignals: Signals

    init(_ explained: MovieExplanation) {
        requestId = explained.requestId
        userId = explained.userId
        movieId = explained.scored.movieId
        aiScore = explained.scored.aiScore
        explanation = ExplanationDTO(explained.scored.explanation)
        socialSignals = Signals(
            friendRatingsCount: explained.friendRatingsCount, friendRatingsAvg: rounded(explained.friendRatingsAverage ?? 0),
            friendWatchCount: explained.friendWatchCount
        )
    }

    func explained() throws -> MovieExplanation {
        MovieExplanation(
            requestId: requestId, userId: userId,
            scored: ScoredMovie(movieId: movieId, score: Double(aiScore) / 100, explanation: try explanation.explanation()),
            friendRatingsCount: socialSignals.friendRatingsCount,
            friendRatingsAverage: socialSignals.friendRatingsCount > 0 ? socialSignals.friendRatingsAvg : nil,
            friendWatchCount: socialSignals.friendWatchCount
        )
    }
}

// MARK: GET /feed/recommendations, GET /movies/{id}/explanation

struct FriendRatingsDTO: Encodable, Sendable {
    struct Friend: Encodable, Sendable {
        var userId: Int64
        var name: String
        @Nullable var avatarUrl: String?
        var rating: Int
    }
    var count: Int
    /// 0 when no friend rated the film.
    var average: Double
    var friends: [Friend]

    init(_ ratings: [FriendRating]) {
        count = ratings.count
        average = ratings.isEmpty ? 0 : rounded(ratings.map(\.rating).reduce(0, +) / Double(ratings.count))
        friends = ratings.map { Friend(userId: $0.userId, name: $0.name, avatarUrl: $0.avatarUrl, rating: MovieRated.stars($0.rating)) }
    }
}

struct FeedRecommendationDTO: Encodable, Sendable {
    var movieId: Int64
    var title: String
    @Nullable var posterUrl: String?
    var genres: [String]
    @Nullable var releaseDate: String?
    @Nullable var rating: Double?
    var aiScore: Int
    var socialScore: Int
    var explanation: ExplanationDTO
    var friendRatings: FriendRatingsDTO

    init(_ scored: ScoredMovie, movie: MovieSummary, friendRatings: [FriendRating]) {
        let summary = MovieSummaryDTO(movie)
        movieId = scored.movieId
        title = summary.title
        posterUrl = nil
        genres = summary.genres
        releaseDate = summary.releaseDate
        rating = summary.rating
        aiScore = scored.aiScore
        socialScore = scored.socialScore
        explanation = ExplanationDTO(scored.explanation)
        self.friendRatings = FriendRatingsDTO(friendRatings)
    }
}

struct RecommendationFeedDTO: Encodable, Sendable {
    var recommendations: [FeedRecommendationDTO]
    var lastUpdated: String
    var totalCount: Int
    var limit: Int
    var offset: Int
    var hasMore: Bool
}

struct MovieExplanationDTO: ResponseEncodable, Sendable {
    struct Signals: Encodable, Sendable {
        var friendRatingsCount: Int
        /// 0 when no friend rated the film.
        var friendRatingsAvg: Double
        var friendWatchCount: Int
        var mutualFriendsWatched: Int
    }
    var movieId: Int64
    var aiScore: Int
    var explanation: ExplanationDTO
    var socialSignals: Signals

    init(_ scored: ScoredMovie, signals: SocialSignals) {
        movieId = scored.movieId
        aiScore = scored.aiScore
        explanation = ExplanationDTO(scored.explanation)
        socialSignals = Signals(
            friendRatingsCount: signals.friendRatingsCount, friendRatingsAvg: rounded(signals.friendRatingsAverage ?? 0),
            friendWatchCount: signals.friendWatchCount, mutualFriendsWatched: signals.mutualFriendsWatched
        )
    }
}
