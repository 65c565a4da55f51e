import NuvieDomain

/// What the scorer knows about one user, read from the recommendation-input read models (or, in
/// offline evaluation, from the training ratings).
public struct TasteProfile: Sendable {
    public struct Rated: Sendable, Equatable {
        public var rating: Double
        /// The log position of the rating event (0 offline).
        public var position: UInt64

        public init(rating: Double, position: UInt64) {
            self.rating = rating
            self.position = position
        }

        public var liked: Bool { rating >= MovieRated.likedThreshold }
    }

    /// A friend's signal on a film: they rated it highly (4 stars or more as shown), or recommended it to the user.
    public struct FriendSignal: Sendable, Equatable {
        public var friendId: Int64
        public var position: UInt64
        public var recommended: Bool

        public init(friendId: Int64, position: UInt64, recommended: Bool) {
            self.friendId = friendId
            self.position = position
            self.recommended = recommended
        }
    }

    /// A film the user showed interest in without rating it: finished watching, or saved to their
    /// watchlist; `position` is the event's.
    public struct Signal: Sendable, Equatable {
        public enum Kind: String, Sendable { case finished, saved }
        public var kind: Kind
        public var position: UInt64

        public init(_ kind: Kind, position: UInt64) {
            self.kind = kind
            self.position = position
        }
    }

    public var ratings: [Int64: Rated]
    /// Films the user finished watching: not recommended again.
    public var completed: Set<Int64>
    /// Films finished or saved: seeds of the personal term beside the rated ones
    /// (`Scorer.signalWeight`), cited by `similar_users`; one also rated speaks as its rating.
    public var signals: [Int64: Signal]
    /// How many films the user liked in each genre.
    public var likedByGenre: [String: Int]
    public var friendCount: Int
    /// Film → friends' signals on it.
    public var friendSignals: [Int64: [FriendSignal]]
    public var friendNames: [Int64: String]

    /// Whether the user rated or finished the film: such films are never recommended to them.
    func hasSeen(_ movieId: Int64) -> Bool {
        ratings[movieId] != nil || completed.contains(movieId)
    }

    func hasSeen(_ movieIds: Set<Int64>) -> Bool {
        movieIds.allSatisfy(hasSeen)
    }

    public init(
        ratings: [Int64: Rated], completed: Set<Int64> = [], signals: [Int64: Signal] = [:], likedByGenre: [String: Int], friendCount: Int = 0,
        friendSignals: [Int64: [FriendSignal]] = [:], friendNames: [Int64: String] = [:]
    ) {
        self.ratings = ratings
        self.completed = completed
        self.signals = signals
        self.likedByGenre = likedByGenre
        self.friendCount = friendCount
        self.friendSignals = friendSignals
        self.friendNames = friendNames
    }
}

/// The catalog facts the scorer needs for every film.
public struct CatalogSnapshot: Sendable {
    /// How many of the most rated films are candidates even when the model does not cover them, so
    /// that a young catalog (or a new user) still gets popular films.
    static let popularCandidates = 200

    public var titles: [Int64: String]
    public var genres: [Int64: [String]]
    /// Ratings per film (popularity).
    public var ratingCounts: [Int64: Int]
    /// The `popularCandidates` most rated films, most first.
    public let mostRated: [Int64]

    public init(titles: [Int64: String], genres: [Int64: [String]], ratingCounts: [Int64: Int]) {
        self.titles = titles
        self.genres = genres
        self.ratingCounts = ratingCounts
        mostRated = ratingCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(Self.popularCandidates).map(\.key)
    }
}
