import EventSourcing
/// A film entered the catalog.
public struct MovieAdded: NuvieEventPayload {
    public static let typeName = "movie-added"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { nil }
    public var subjectUserIds: [Int64] { [] }

    public var movieId: Int64
    public var title: String
    public var genres: [String]
    /// MovieLens knows only the year of release.
    public var year: Int?
    public var tmdbId: Int64?
    public var imdbId: String?

    public init(movieId: Int64, title: String, genres: [String], year: Int?, tmdbId: Int64?, imdbId: String?) {
        self.movieId = movieId
        self.title = title
        self.genres = genres
        self.year = year
        self.tmdbId = tmdbId
        self.imdbId = imdbId
    }
}

/// A user attached a free-text tag to a film (MovieLens tags; searchable). The tag is the user's own
/// words, so it is personal: sealed under their key, nil once they are erased. Logs written before
/// it was sealed hold it in clear, read as it is until the user's erasure (`seal-log` seals them).
public struct MovieTagged: NuvieEventPayload {
    public static let typeName = "movie-tagged"
    public static let schemaVersion: UInt16 = 1
    public var actorUserId: Int64? { userId }
    public var subjectUserIds: [Int64] { [] }

    public var userId: Int64
    public var movieId: Int64
    @Personal public var tag: String?

    public init(userId: Int64, movieId: Int64, tag: String?) {
        self.userId = userId
        self.movieId = movieId
        self.tag = tag
    }
}
