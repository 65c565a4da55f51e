import Foundation

/// `POST /ai/recommend`'s question and answer, in our terms.
public struct RecommendQuery: Sendable, Equatable {
    public static let maximumLimit = 50

    public var requestId: String
    public var userId: Int64
    public var limit: Int
    public var offset: Int
    public var excludeMovieIds: Set<Int64>
    public var useSocial: Bool
    public var seedMovieIds: Set<Int64>?

    public init(requestId: String, userId: Int64, limit: Int, offset: Int = 0, excludeMovieIds: Set<Int64> = [], useSocial: Bool = true, seedMovieIds: Set<Int64>? = nil) {
        self.requestId = requestId
        self.userId = userId
        self.limit = limit
        self.offset = offset
        self.excludeMovieIds = excludeMovieIds
        self.useSocial = useSocial
        self.seedMovieIds = seedMovieIds
    }
}

public struct ModelInfo: Sendable, Equatable, Codable {
    public var name: String
    public var version: String
    public var trainedAt: Date

    public init(name: String, version: String, trainedAt: Date) {
        self.name = name
        self.version = version
        self.trainedAt = trainedAt
    }
}

public struct RecommendationList: Sendable, Codable {
    public var requestId: String
    public var userId: Int64
    public var model: ModelInfo
    public var generatedAt: Date
    public var ttlSeconds: Int
    /// Ranked from `offset + 1`.
    public var items: [ScoredMovie]
    public var offset: Int

    public init(requestId: String, userId: Int64, model: ModelInfo, generatedAt: Date, ttlSeconds: Int, items: [ScoredMovie], offset: Int) {
        self.requestId = requestId
        self.userId = userId
        self.model = model
        self.generatedAt = generatedAt
        self.ttlSeconds = ttlSeconds
        self.items = items
        self.offset = offset
    }
}

/// `POST /ai/explain`'s question and answer.
public struct ExplainQuery: Sendable, Equatable {
    public var requestId: String
    public var userId: Int64
    public var movieId: Int64
    public var useSocial: Bool

    public init(requestId: String, userId: Int64, movieId: Int64, useSocial: Bool = true) {
        self.requestId = requestId
        self.userId = userId
        self.movieId = movieId
        self.useSocial = useSocial
    }
}

public struct MovieExplanation: Sendable {
    public var requestId: String
    public var userId: Int64
    public var scored: ScoredMovie
    public var friendRatingsCount: Int
    public var friendRatingsAverage: Double?
    public var friendWatchCount: Int

    public init(requestId: String, userId: Int64, scored: ScoredMovie, friendRatingsCount: Int, friendRatingsAverage: Double?, friendWatchCount: Int) {
        self.requestId = requestId
        self.userId = userId
        self.scored = scored
        self.friendRatingsCount = friendRatingsCount
        self.friendRatingsAverage = friendRatingsAverage
        self.friendWatchCount = friendWatchCount
    }
}

/// The AI service as the backend sees it: the model in this process, or one behind a URL.
public protocol RecommendationEngine: Sendable {
    func recommend(_ query: RecommendQuery) async throws -> RecommendationList
    func explain(_ query: ExplainQuery) async throws -> MovieExplanation
    /// `ai_score` and `social_score` of one film for one user, for screens that show only those.
    func scores(userId: Int64, movieId: Int64) async throws -> (aiScore: Int, socialScore: Int)
}

extension RecommendationEngine {
    public func scores(userId: Int64, movieId: Int64) async throws -> (aiScore: Int, socialScore: Int) {
        let scored = try await explain(ExplainQuery(requestId: UUID().uuidString, userId: userId, movieId: movieId)).scored
        return (scored.aiScore, scored.socialScore)
    }
}

/// The AI contract's errors.
public enum RecommendationError: Error, Equatable, CustomStringConvertible {
    case modelNotReady
    case userNotFound(Int64)
    case movieNotFound(Int64)
    case timeout
    case invalidRequest(String)
    case unavailable(String)

    public var description: String {
        switch self {
        case .modelNotReady: "The recommendation model has not been trained yet"
        case .userNotFound(let id): "User with ID \(id) not found"
        case .movieNotFound(let id): "Movie with ID \(id) not found"
        case .timeout: "The AI service did not answer in time"
        case .invalidRequest(let message): message
        case .unavailable(let message): "The AI service failed: \(message)"
        }
    }
}
