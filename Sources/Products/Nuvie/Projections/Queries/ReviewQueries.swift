import ReadModels
import GRDB

public struct ReviewItem: Sendable, Equatable {
    public var reviewId: Int64
    public var userId: Int64
    public var userName: String
    public var userAvatar: String?
    public var movieId: Int64
    public var rating: Double
    public var comment: String?
    /// Epoch seconds of the last edit.
    public var updatedAt: Int64
    public var likes: Int
    public var viewerLiked: Bool
}

/// Reads reviews and their likes.
public struct ReviewQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    /// A film's reviews: the viewer's own first, then their friends', then everyone else's, each
    /// newest edit first. Reviews by users blocked either way are left out.
    public func reviews(movieId: Int64, viewer: Int64?, limit: Int, offset: Int) throws -> Page<ReviewItem> {
        try database.read { db in
            let visible = """
                r.movieId = ?2 AND NOT EXISTS (SELECT 1 FROM userBlock b WHERE (b.userId = ?1 AND b.blockedUserId = r.userId)
                                                                       OR (b.userId = r.userId AND b.blockedUserId = ?1))
                """
            let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM review r WHERE \(visible)"), arguments: [viewer, movieId]) ?? 0
            let items = try Row.fetchAll(db.cachedStatement(sql: Self.select + """
                WHERE \(visible)
                ORDER BY CASE WHEN r.userId = ?1 THEN 0
                              WHEN EXISTS (SELECT 1 FROM friendship f WHERE f.userId = ?1 AND f.friendId = r.userId) THEN 1
                              ELSE 2 END,
                         r.updatedAt DESC, r.reviewId DESC
                LIMIT ?3 OFFSET ?4
                """), arguments: [viewer, movieId, limit, offset]).map(Self.item)
            return Page(items: items, totalCount: total)
        }
    }

    public func review(id reviewId: Int64, viewer: Int64?) throws -> ReviewItem? {
        try database.read { db in
            try Row.fetchOne(db.cachedStatement(sql: Self.select + "WHERE r.reviewId = ?2"), arguments: [viewer, reviewId]).map(Self.item)
        }
    }

    private static let select = """
        SELECT r.reviewId, r.userId, u.name, u.avatarUrl, r.movieId, r.rating, r.comment, r.updatedAt, r.likeCount,
               EXISTS (SELECT 1 FROM reviewLike l WHERE l.reviewId = r.reviewId AND l.userId = ?1) AS viewerLiked
        FROM review r LEFT JOIN user u ON u.userId = r.userId

        """

    /// By column index, in `select`'s order: by-name lookups fold case and cost more than the read.
    private static func item(_ row: Row) -> ReviewItem {
        let userId: Int64 = row[1]
        return ReviewItem(
            reviewId: row[0], userId: userId, userName: row[2] ?? "User \(userId)",
            userAvatar: row[3], movieId: row[4], rating: row[5], comment: row[6],
            updatedAt: row[7], likes: row[8], viewerLiked: row[9]
        )
    }
}
