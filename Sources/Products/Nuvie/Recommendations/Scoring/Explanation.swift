/// The contract's reason types (`ai reason type enum`).
public enum FactorType: String, Sendable, CaseIterable, Codable {
    case genreMatch = "genre_match"
    case becauseYouRated = "because_you_rated"
    case similarUsers = "similar_users"
    case friendActivity = "friend_activity"
    case trending
    case popular
    /// Only from an external AI service (`NUVIE_AI_SERVICE_URL`): the contract allows it; the model here never gives it.
    case rules
}

/// One term of a film's score. `weight` is the term's exact share of the score (the weights of an
/// explanation sum to 1, up to rounding); the other fields are the facts the term was computed from.
public struct Factor: Sendable, Equatable, Codable {
    public var type: FactorType
    public var weight: Double
    public var value: Int
    /// because_you_rated: the liked films that add most to this one, largest first (at most 5).
    public var seedMovieIds: [Int64] = []
    /// similar_users: the films the user rated but did not like that add most to this one (at most 5
    /// with `signalMovieIds`).
    public var ratedMovieIds: [Int64] = []
    /// similar_users: the films the user finished or saved without rating them that add most to this
    /// one (at most 5 with `ratedMovieIds`).
    public var signalMovieIds: [Int64] = []
    /// friend_activity: every friend who rated the film 4 or more or recommended it to the user.
    public var friendUserIds: [Int64] = []
    /// genre_match: the film's genres the user has liked films in, most liked first.
    public var genres: [String] = []
    /// The log positions of the events the factor rests on (at most 10).
    public var evidenceEventIds: [UInt64] = []
    public var description: String

    public init(type: FactorType, weight: Double, value: Int, seedMovieIds: [Int64] = [], ratedMovieIds: [Int64] = [], signalMovieIds: [Int64] = [],
                friendUserIds: [Int64] = [], genres: [String] = [], evidenceEventIds: [UInt64] = [], description: String) {
        self.type = type
        self.weight = weight
        self.value = value
        self.seedMovieIds = seedMovieIds
        self.ratedMovieIds = ratedMovieIds
        self.signalMovieIds = signalMovieIds
        self.friendUserIds = friendUserIds
        self.genres = genres
        self.evidenceEventIds = evidenceEventIds
        self.description = description
    }
}

public struct Explanation: Sendable, Equatable, Codable {
    public var primaryReason: FactorType
    /// How well the model knows the user's taste: min(1, ratings / 30), 0 under 3 ratings.
    public var confidence: Double
    public var factors: [Factor]

    public init(primaryReason: FactorType, confidence: Double, factors: [Factor]) {
        self.primaryReason = primaryReason
        self.confidence = confidence
        self.factors = factors
    }
}

public struct ScoredMovie: Sendable, Equatable, Codable {
    public var movieId: Int64
    /// In [0, 1]; the sum of the factors' terms.
    public var score: Double
    public var explanation: Explanation

    public init(movieId: Int64, score: Double, explanation: Explanation) {
        self.movieId = movieId
        self.score = score
        self.explanation = explanation
    }

    /// The contract's `ai_score`: round(score × 100).
    public var aiScore: Int { Self.aiScore(score) }

    /// A score from a remote service may be anything: one past what an Int holds reads as 0.
    static func aiScore(_ score: Double) -> Int { Int(exactly: (score * 100).rounded()) ?? 0 }

    /// 0–100 from friends' signals: min(1, friends who rated it 4+ or recommended it / 3).
    public var socialScore: Int {
        Self.socialScore(friends: explanation.factors.first { $0.type == .friendActivity }?.value ?? 0)
    }

    static func socialScore(friends: Int) -> Int {
        Int((min(1, max(0, Double(friends) / Scorer.friendsForFullSocial)) * 100).rounded())
    }
}
