import ReadModels
import NuvieDomain
import Foundation
import GRDB

/// What the recommender reads about one user: their ratings, finished and saved films, liking by
/// genre (taste), friends, friends' high ratings (4 stars or more as shown) and the films friends
/// recommended to them.
public struct RecommendationInputs: Sendable {
    public struct Rated: Sendable { public var movieId: Int64; public var rating: Double; public var position: UInt64 }
    /// A film the user finished or saved to their watchlist, and the position of the event that did.
    public struct Marked: Sendable { public var movieId: Int64; public var position: UInt64 }
    public struct FriendSignal: Sendable { public var friendId: Int64; public var movieId: Int64; public var position: UInt64; public var recommended: Bool }

    public var ratings: [Rated]
    public var completed: [Marked]
    public var saved: [Marked]
    public var likedByGenre: [String: Int]
    public var friends: [Int64: String]
    public var friendSignals: [FriendSignal]
}

/// A friend's rating of a film, for the feed's `friend_ratings`.
public struct FriendRating: Sendable, Equatable {
    public var userId: Int64
    public var name: String
    public var avatarUrl: String?
    public var rating: Double
}

/// The facts behind `social_signals`.
public struct SocialSignals: Sendable, Equatable {
    public var friendRatingsCount: Int
    public var friendRatingsAverage: Double?
    /// Friends who rated the film or finished watching it.
    public var friendWatchCount: Int
    /// Friends of friends (people you share a friend with, not yet your friends) who rated or finished it.
    public var mutualFriendsWatched: Int
}

/// Reads the recommendation inputs: user-ratings, taste, social, watch, catalog and movie-stats.
public struct RecommendationInputQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    /// What the training pairs rest on: the log position of the latest rating or finish, and how many
    /// users are erased (an erasure takes a user's pairs away without a newer rating or finish).
    /// The newest pair's position does not change when a projection is folded again from the start
    /// (after an upgrade, under a model trained while it was part-way): the count of pairs does.
    public struct InteractionsVersion: Sendable, Equatable {
        public var position: UInt64
        public var pairs: Int
        public var erasedUsers: Int
    }

    /// Who watched what: every (user, film) pair rated or finished watching, in log order (a pair both
    /// rated and finished comes twice: training counts it once), and the version of the read models
    /// they were read from.
    public func interactions() throws -> (version: InteractionsVersion, pairs: [(userId: Int64, movieId: Int64)]) {
        try database.read { db in
            let version = try Self.interactionsVersion(db)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT userId, movieId, position FROM userRating
                UNION ALL SELECT userId, movieId, position FROM watchStatus WHERE status = 'completed'
                ORDER BY position
                """)
            var pairs: [(userId: Int64, movieId: Int64)] = []
            while let row = try rows.next() { pairs.append((row[0], row[1])) }
            return (version, pairs)
        }
    }

    /// The version `interactions` reports, alone: what tells the trainer the pairs may have changed.
    public func interactionsVersion() throws -> InteractionsVersion {
        try database.read(Self.interactionsVersion)
    }

    private static func interactionsVersion(_ db: Database) throws -> InteractionsVersion {
        let row = try Row.fetchOne(db, sql: """
            SELECT MAX(ifnull((SELECT MAX(position) FROM userRating), 0),
                       ifnull((SELECT MAX(position) FROM watchStatus WHERE status = 'completed'), 0)),
                   (SELECT COUNT(*) FROM userRating) + (SELECT COUNT(*) FROM watchStatus WHERE status = 'completed'),
                   (SELECT COUNT(*) FROM user WHERE erasedAt IS NOT NULL)
            """)
        return InteractionsVersion(position: row?[0] ?? 0, pairs: row?[1] ?? 0, erasedUsers: row?[2] ?? 0)
    }

    /// Titles and genres of every film in the catalog.
    public func catalog() throws -> (titles: [Int64: String], genres: [Int64: [String]]) {
        try database.read { db in
            var titles: [Int64: String] = [:], genres: [Int64: [String]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT movieId, title, genres FROM movie")
            while let row = try rows.next() {
                titles[row["movieId"]] = row["title"]
                genres[row["movieId"]] = decodeGenres(row["genres"])
            }
            return (titles, genres)
        }
    }

    public func movieCount() throws -> Int {
        try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM movie") ?? 0 }
    }

    public func movieExists(_ movieId: Int64) throws -> Bool {
        try database.statement { try Bool.fetchOne($0.cachedStatement(sql: "SELECT 1 FROM movie WHERE movieId = ?"), arguments: [movieId]) != nil }
    }

    /// Ratings per film, now.
    public func ratingCounts() throws -> [Int64: Int] {
        try database.read { db in
            var counts: [Int64: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT movieId, ratingCount FROM movieStats WHERE ratingCount > 0")
            while let row = try rows.next() { counts[row[0]] = row[1] }
            return counts
        }
    }

    /// The films the user rated or finished watching (once: a film started again is still seen):
    /// never recommended to them.
    public func seenMovieIds(userId: Int64) throws -> Set<Int64> {
        try database.read { db in
            Set(try Int64.fetchAll(db, sql: """
                SELECT movieId FROM userRating WHERE userId = ?1
                UNION SELECT movieId FROM watchStatus WHERE userId = ?1 AND everCompleted
                """, arguments: [userId]))
        }
    }

    /// nil when there is no such user.
    ///
    /// Each row is read by column position from a cursor: read by name, each value had GRDB look its
    /// column up (lowercasing the name) and copy the row, most of this read's time, and this read
    /// runs again whenever the user or a friend rates (BENCHMARKS.md).
    public func inputs(userId: Int64) throws -> RecommendationInputs? {
        try database.read { db in
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM user WHERE userId = ? AND erasedAt IS NULL"), arguments: [userId]) != nil else {
                return nil
            }
            func rows<Item>(_ sql: String, _ arguments: StatementArguments = [userId], _ item: @escaping (Row) -> Item) throws -> [Item] {
                try Array(Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments).map(item))
            }
            let ratings = try rows("SELECT movieId, rating, position FROM userRating WHERE userId = ?") {
                RecommendationInputs.Rated(movieId: $0[0], rating: $0[1], position: $0[2])
            }
            func marked(_ sql: String) throws -> [RecommendationInputs.Marked] {
                try rows(sql) { RecommendationInputs.Marked(movieId: $0[0], position: $0[1]) }
            }
            let completed = try marked("SELECT movieId, position FROM watchStatus WHERE userId = ? AND status = 'completed'")
            let saved = try marked("SELECT movieId, position FROM watchlistEntry WHERE userId = ?")
            let likedByGenre = Dictionary(
                try rows("SELECT genre, likedCount FROM userGenre WHERE userId = ? AND likedCount > 0") { ($0[0] as String, $0[1] as Int) }
            ) { _, last in last }
            let friends = Dictionary(
                try rows("SELECT u.userId, u.name FROM friendship f JOIN user u ON u.userId = f.friendId WHERE f.userId = ?") { ($0[0] as Int64, $0[1] as String) }
            ) { _, last in last }
            let rated = try rows("""
                SELECT r.userId, r.movieId, r.position FROM friendship f JOIN userRating r ON r.userId = f.friendId
                WHERE f.userId = ? AND r.rating >= ?
                """, [userId, MovieRated.highlyRatedThreshold]) {
                RecommendationInputs.FriendSignal(friendId: $0[0], movieId: $0[1], position: $0[2], recommended: false)
            }
            let recommended = try rows("""
                SELECT m.fromUserId, m.movieId, m.position FROM movieRecommendation m
                JOIN friendship f ON f.userId = m.toUserId AND f.friendId = m.fromUserId
                WHERE m.toUserId = ?
                """) {
                RecommendationInputs.FriendSignal(friendId: $0[0], movieId: $0[1], position: $0[2], recommended: true)
            }
            return RecommendationInputs(
                ratings: ratings, completed: completed, saved: saved, likedByGenre: likedByGenre, friends: friends, friendSignals: rated + recommended
            )
        }
    }

    /// What a user's cached feed and scoring pass rest on, read in one statement.
    public struct Freshness: Sendable, Equatable {
        /// Changes whenever anything a user's feed rests on changes, apart from other people's
        /// ratings: their own ratings and watches, their friends (which ones, and their names: any
        /// event a friend causes), their friends' ratings, recommendations to them, their watchlist.
        public var stamp: String
        /// How far movie-stats (popularity, averages) has folded the log.
        public var popularityPosition: UInt64
    }

    public func freshness(userId: Int64) throws -> Freshness {
        // One statement, so no transaction is needed for it to see one state of the database.
        try database.statement { db in
            // The stamp is put together by SQLite: formatting seven values in Swift cost more than the read.
            let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT ifnull((SELECT MAX(position) FROM userRating WHERE userId = ?1), '-')
                       || '/' || ifnull((SELECT COUNT(*) || '.' || SUM(friendId) || '.' || MAX(since) FROM friendship WHERE userId = ?1), '-')
                       || '/' || ifnull((SELECT MAX((SELECT MAX(position) FROM userRating WHERE userId = f.friendId)) FROM friendship f WHERE f.userId = ?1), '-')
                       || '/' || ifnull((SELECT MAX(position) FROM movieRecommendation WHERE toUserId = ?1), '-')
                       || '/' || ifnull((SELECT COUNT(*) || '.' || SUM(movieId) || '.' || MAX(position) FROM watchStatus WHERE userId = ?1 AND everCompleted), '-')
                       || '/' || ifnull((SELECT COUNT(*) || '.' || SUM(movieId) || '.' || MAX(position) FROM watchlistEntry WHERE userId = ?1), '-')
                       || '/' || ifnull((SELECT MAX(u.lastActiveAt) FROM friendship f JOIN user u ON u.userId = f.friendId WHERE f.userId = ?1), '-'),
                       (SELECT position FROM projectionCheckpoint WHERE name = 'movie-stats')
                """), arguments: [userId])
            return Freshness(stamp: row?[0] ?? "-", popularityPosition: row?[1] ?? 0)
        }
    }

    /// For each film, the caller's friends who rated it, highest rating first.
    public func friendRatings(userId: Int64, movieIds: [Int64]) throws -> [Int64: [FriendRating]] {
        guard !movieIds.isEmpty else { return [:] }
        return try database.read { db in
            var byMovie: [Int64: [FriendRating]] = [:]
            let rows = try Row.fetchAll(db, sql: """
                SELECT r.movieId, r.rating, u.userId, u.name, u.avatarUrl FROM friendship f
                JOIN userRating r ON r.userId = f.friendId JOIN user u ON u.userId = f.friendId
                WHERE f.userId = ? AND r.movieId IN (\(movieIds.map { _ in "?" }.joined(separator: ",")))
                ORDER BY r.rating DESC, u.userId
                """, arguments: StatementArguments([userId] + movieIds))
            for row in rows {
                byMovie[row["movieId"], default: []].append(
                    FriendRating(userId: row["userId"], name: row["name"], avatarUrl: row["avatarUrl"], rating: row["rating"])
                )
            }
            return byMovie
        }
    }

    public func socialSignals(userId: Int64, movieId: Int64) throws -> SocialSignals {
        try database.read { db in
            let ratings = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS n, AVG(r.rating) AS average FROM friendship f JOIN userRating r ON r.userId = f.friendId
                WHERE f.userId = ? AND r.movieId = ?
                """, arguments: [userId, movieId])
            let watched = """
                SELECT userId FROM userRating WHERE movieId = ?2
                UNION SELECT userId FROM watchStatus WHERE movieId = ?2 AND everCompleted
                """
            let friendsWatched = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM (\(watched)) w JOIN friendship f ON f.friendId = w.userId AND f.userId = ?1
                """, arguments: [userId, movieId]) ?? 0
            let mutualWatched = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM (\(watched)) w JOIN mutualFriend m ON m.otherId = w.userId AND m.userId = ?1
                WHERE m.mutualCount > 0 AND m.otherId != ?1
                  AND NOT EXISTS (SELECT 1 FROM friendship f WHERE f.userId = ?1 AND f.friendId = m.otherId)
                  AND NOT EXISTS (SELECT 1 FROM userBlock b WHERE (b.userId = ?1 AND b.blockedUserId = m.otherId)
                                                             OR (b.userId = m.otherId AND b.blockedUserId = ?1))
                """, arguments: [userId, movieId]) ?? 0
            return SocialSignals(
                friendRatingsCount: ratings?["n"] ?? 0, friendRatingsAverage: ratings?["average"],
                friendWatchCount: friendsWatched, mutualFriendsWatched: mutualWatched
            )
        }
    }
}
