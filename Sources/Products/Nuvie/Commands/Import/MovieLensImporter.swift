import EventSourcing
import NuvieDomain
import NuvieMovieLens
import EventLog
import Foundation

/// Turns a MovieLens directory into events, so that the log alone rebuilds the demo: one
/// `movie-added` per film, one registered user per MovieLens user, their ratings and tags (a rated
/// film's tags also make that rating a review, since MovieLens has no reviews), then the
/// seeded demo social graph (`DemoSocialGraph`).
///
/// Event ids are derived from the data, so importing the same files again writes nothing.
/// Times: films are recorded at the first rating's time, each user just before their first rating or
/// tag, and ratings and tags at their own MovieLens timestamps, in that order, so the log's
/// recorded times never go backwards.
public struct MovieLensImporter: Sendable {
    public struct Progress: Sendable {
        public var appended: Int
        public var total: Int
        public var elapsed: Duration
    }

    public struct Summary: Sendable, Equatable {
        public var movies: Int
        public var users: Int
        public var ratings: Int
        public var tags: Int
        /// Events the log did not have yet (0 when the same files were imported before).
        public var newEvents: Int
        public var headPosition: UInt64
        /// Rows that were not films, ratings or tags, or of films the catalog lacks: not imported.
        public var rejected: RejectedRows
    }

    let store: NuvieStore
    let batchSize: Int
    var log: EventLog { store.log }

    public init(store: NuvieStore, batchSize: Int = 5000) {
        self.store = store
        self.batchSize = batchSize
    }

    public func importDirectory(_ directory: URL, progress: @Sendable (Progress) -> Void = { _ in }) async throws -> Summary {
        try await importDataset(try MovieLensDataset(directory: directory), progress: progress)
    }

    /// Imports what `dataset` read; its rejected rows are not in it (`Summary.rejected` says which).
    public func importDataset(_ dataset: MovieLensDataset, progress: @Sendable (Progress) -> Void = { _ in }) async throws -> Summary {
        try await store.personalData.prepareKeys(for: Set(dataset.ratings.map(\.userId) + dataset.tags.map(\.userId)))
        let appends = try Self.appends(for: dataset)
        let started = ContinuousClock.now
        var newEvents = 0
        for start in stride(from: 0, to: appends.count, by: batchSize) {
            // Encoded a batch at a time: the whole demo encoded at once stayed resident into the fold.
            let batch = try appends[start..<min(start + batchSize, appends.count)].map { try $0.encoded(in: store) }
            let result = try await log.append(batch)
            if !result.wasDuplicate { newEvents += result.positions.count }
            progress(Progress(appended: start + batch.count, total: appends.count, elapsed: ContinuousClock.now - started))
        }
        return Summary(
            movies: dataset.movies.count, users: Set(dataset.ratings.map(\.userId) + dataset.tags.map(\.userId)).count,
            ratings: dataset.ratings.count, tags: dataset.tags.count, newEvents: newEvents, headPosition: log.headPosition,
            rejected: dataset.rejected
        )
    }

    private static func appends(for dataset: MovieLensDataset) throws -> [PlannedAppend] {
        func single(_ stream: String, _ event: NuvieEvent, key: String, at: Date, expected: ExpectedVersion = .noStream) -> PlannedAppend {
            PlannedAppend(stream: stream, event: event, key: key, at: at, expected: expected)
        }
        enum Activity { case rating(RatingRecord), tag(MovieLensDataset.Tag) }
        let activities = (dataset.ratings.map { ($0.timestamp, Activity.rating($0)) } + dataset.tags.map { ($0.timestamp, Activity.tag($0)) })
            .enumerated()
            .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
            .map(\.element)
        let epoch = Date(timeIntervalSince1970: TimeInterval(activities.first?.0 ?? 0))

        var appends: [PlannedAppend] = []
        appends.reserveCapacity(dataset.movies.count + activities.count + 1_000)
        for movie in dataset.movies {
            let added = MovieAdded(movieId: movie.movieId, title: movie.title, genres: movie.genres, year: movie.year, tmdbId: movie.tmdbId, imdbId: movie.imdbId)
            appends.append(single(NuvieStreams.movie(movie.movieId), .movieAdded(added), key: "movie:\(movie.movieId)", at: epoch))
        }
        // MovieLens has no reviews. A user's tags on a film they rated are their own words about it:
        // once the last of them is recorded, the rating becomes a review with those tags as its text.
        let tagsByPair = Dictionary(grouping: activities.compactMap { _, activity -> MovieLensDataset.Tag? in
            if case .tag(let t) = activity { t } else { nil }
        }, by: { NuvieStreams.rating(userId: $0.userId, movieId: $0.movieId) }).mapValues { $0.map(\.tag) }
        var tagsSeen: [String: Int] = [:]
        var registered = Set<Int64>()
        var ratings: [String: Double] = [:]
        for (timestamp, activity) in activities {
            let at = Date(timeIntervalSince1970: TimeInterval(timestamp))
            let userId: Int64 = switch activity {
            case .rating(let r): r.userId
            case .tag(let t): t.userId
            }
            if registered.insert(userId).inserted {
                let identity = Identity(provider: .movielens, subject: "\(userId)")
                let (claimed, user) = try Registration.decide(identity: identity, userId: userId, name: DemoNames.name(for: userId), email: nil)
                appends.append(single(NuvieStreams.identity(identity), .identityClaimed(claimed), key: "identity:\(userId)", at: at))
                appends.append(single(NuvieStreams.user(userId), .userRegistered(user), key: "user:\(userId)", at: at))
            }
            switch activity {
            case .rating(let r):
                let stream = NuvieStreams.rating(userId: r.userId, movieId: r.movieId)
                let rated = MovieRated(userId: r.userId, movieId: r.movieId, rating: r.rating, previousRating: ratings[stream], comment: nil, isReview: false)
                ratings[stream] = r.rating
                appends.append(single(stream, .movieRated(rated), key: "rating:\(r.userId):\(r.movieId):\(timestamp)", at: at, expected: .any))
            case .tag(let t):
                let tagged = MovieTagged(userId: t.userId, movieId: t.movieId, tag: t.tag)
                appends.append(single(NuvieStreams.user(t.userId), .movieTagged(tagged), key: "tag:\(t.userId):\(t.movieId):\(t.tag)", at: at, expected: .any))
                let stream = NuvieStreams.rating(userId: t.userId, movieId: t.movieId)
                let pairTags = tagsByPair[stream, default: []]
                tagsSeen[stream, default: 0] += 1
                if tagsSeen[stream] == pairTags.count, let rating = ratings[stream] {
                    let comment = String(pairTags.joined(separator: ", ").prefix(RateMovie.maximumCommentLength))
                    let review = MovieRated(userId: t.userId, movieId: t.movieId, rating: rating, previousRating: rating, comment: comment, isReview: true)
                    appends.append(single(stream, .movieRated(review), key: "review:\(t.userId):\(t.movieId)", at: at, expected: .any))
                }
            }
        }
        let lastActivity = activities.last.map { Date(timeIntervalSince1970: TimeInterval($0.0)) } ?? epoch
        appends += try DemoSocialGraph(dataset: dataset, start: lastActivity).appends()
        return appends
    }
}

/// One event of the import as planned: encoded (and its personal fields sealed) only when its batch
/// is appended.
struct PlannedAppend {
    var stream: String
    var event: NuvieEvent
    var key: String
    var at: Date
    var expected: ExpectedVersion

    func encoded(in store: NuvieStore) throws -> StreamAppend {
        StreamAppend(streamId: stream, expectedVersion: expected, events: [try store.newEventWithPreparedKeys(event, id: NuvieCatalog.derivedEventId(from: "movielens:\(key)"), recordedAt: at)])
    }
}
