import ReadModels
import NuvieDomain
import GRDB

public struct UserSummary: Sendable, Equatable {
    public var userId: Int64
    public var name: String
    public var email: String?
    public var avatarUrl: String?
}

/// A profile with the counts and stats the profile screens show.
public struct UserProfile: Sendable, Equatable {
    public var userId: Int64
    public var name: String
    public var email: String?
    public var avatarUrl: String?
    public var bio: String?
    /// Chosen by the user, else their three most liked genres.
    public var favoriteGenres: [String]
    public var favoriteGenresChosen: Bool
    /// Films rated or watched to the end.
    public var watchedCount: Int
    public var friendsCount: Int
    public var ratingsCount: Int
    /// Films rated 4 or more.
    public var favoritesCount: Int
    public var averageRatingGiven: Double?
    /// The genre of most of the films they rated.
    public var mostWatchedGenre: String?
    public var termsVersion: String?
    public var termsAcceptedAt: Int64?
    public var registeredAt: Int64
    public var lastActiveAt: Int64
}

/// Reads user profiles.
public struct UserQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    public func user(id userId: Int64) throws -> UserSummary? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT userId, name, email, avatarUrl FROM user WHERE userId = ? AND erasedAt IS NULL", arguments: [userId]).map {
                UserSummary(userId: $0["userId"], name: $0["name"], email: $0["email"], avatarUrl: $0["avatarUrl"])
            }
        }
    }

    public func profile(id userId: Int64) throws -> UserProfile? {
        try database.read { db in
            guard let user = try Row.fetchOne(db, sql: "SELECT * FROM user WHERE userId = ? AND erasedAt IS NULL", arguments: [userId]) else { return nil }
            let ratings = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS n, COALESCE(SUM(rating >= ?), 0) AS liked, AVG(rating) AS average FROM userRating WHERE userId = ?
                """, arguments: [MovieRated.likedThreshold, userId])
            let chosen = decodeGenreList(user["favoriteGenres"])
            return UserProfile(
                userId: userId, name: user["name"], email: user["email"], avatarUrl: user["avatarUrl"], bio: user["bio"],
                favoriteGenres: try chosen ?? Self.derivedFavoriteGenres(userId, db), favoriteGenresChosen: chosen != nil,
                watchedCount: try Self.watchedCount(userId, db),
                friendsCount: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM friendship WHERE userId = ?", arguments: [userId]) ?? 0,
                ratingsCount: ratings?["n"] ?? 0, favoritesCount: ratings?["liked"] ?? 0, averageRatingGiven: ratings?["average"],
                mostWatchedGenre: try String.fetchOne(db, sql: """
                    SELECT genre FROM userGenre WHERE userId = ? AND ratedCount > 0 ORDER BY ratedCount DESC, genre LIMIT 1
                    """, arguments: [userId]),
                termsVersion: user["termsVersion"], termsAcceptedAt: user["termsAcceptedAt"],
                registeredAt: user["registeredAt"], lastActiveAt: user["lastActiveAt"]
            )
        }
    }

    /// A user's current ratings, most recent first.
    public func ratings(of userId: Int64) throws -> [(movieId: Int64, rating: Double, ratedAt: Int64)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT movieId, rating, ratedAt FROM userRating WHERE userId = ? ORDER BY position DESC", arguments: [userId])
                .map { ($0["movieId"], $0["rating"], $0["ratedAt"]) }
        }
    }

    /// The genres of the films a user liked most, for users who chose none.
    static func derivedFavoriteGenres(_ userId: Int64, _ db: Database, count: Int = 3) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT genre FROM userGenre WHERE userId = ? AND likedCount > 0 ORDER BY likedCount DESC, ratedCount DESC, genre LIMIT ?
            """, arguments: [userId, count])
    }

    static func favoriteGenres(_ userId: Int64, chosen json: String?, _ db: Database) throws -> [String] {
        try decodeGenreList(json) ?? derivedFavoriteGenres(userId, db)
    }

    static func watchedCount(_ userId: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM (SELECT movieId FROM userRating WHERE userId = ?1
                                  UNION SELECT movieId FROM watchStatus WHERE userId = ?1 AND everCompleted)
            """, arguments: [userId]) ?? 0
    }
}
