import ReadModels
import GRDB

public struct ActivityItem: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case rating, review, watched, started, watchlist }

    /// The log position of the event: stable across rebuilds.
    public var activityId: Int64
    public var userId: Int64
    public var userName: String
    public var userAvatar: String?
    public var movieId: Int64
    public var movieTitle: String
    public var kind: Kind
    public var rating: Double?
    public var comment: String?
    public var occurredAt: Int64
}

/// Reads the activity feed.
public struct ActivityQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    /// What the user's friends did, newest first. Blocking ends a friendship, so blocked users never appear.
    public func friendsActivity(of userId: Int64, kind: ActivityItem.Kind?, limit: Int, offset: Int) throws -> Page<ActivityItem> {
        let filter = kind == nil ? "" : "AND a.type = :kind"
        var arguments: StatementArguments = ["user": userId]
        if let kind { arguments += ["kind": kind.rawValue] }
        return try database.read { db in
            let total = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT COALESCE(SUM(a.count), 0) FROM friendship f JOIN activityCount a ON a.userId = f.friendId WHERE f.userId = :user \(filter)
                """), arguments: arguments) ?? 0
            // The page's ids first, from the (userId, activityId) index; the joins only for those rows.
            let items = try Array(Row.fetchCursor(db.cachedStatement(sql: """
                SELECT a.activityId, a.userId, u.name, u.avatarUrl, a.movieId, m.title, a.type, a.rating, a.comment, a.occurredAt
                FROM (
                    SELECT a.activityId AS id FROM friendship f JOIN activity a ON a.userId = f.friendId
                    WHERE f.userId = :user \(filter)
                    ORDER BY a.activityId DESC LIMIT :limit OFFSET :offset
                ) page
                JOIN activity a ON a.activityId = page.id
                JOIN user u ON u.userId = a.userId
                JOIN movie m ON m.movieId = a.movieId
                ORDER BY a.activityId DESC
                """), arguments: arguments + ["limit": limit, "offset": offset]).map { row in
                ActivityItem(
                    activityId: row[0], userId: row[1], userName: row[2], userAvatar: row[3], movieId: row[4], movieTitle: row[5],
                    kind: ActivityItem.Kind(rawValue: row[6]) ?? .rating, rating: row[7], comment: row[8], occurredAt: row[9]
                )
            })
            return Page(items: items, totalCount: total)
        }
    }

    /// Whose activity the user's feed shows.
    public func friendIds(of userId: Int64) throws -> [Int64] {
        try database.read { db in
            try Int64.fetchAll(db.cachedStatement(sql: "SELECT friendId FROM friendship WHERE userId = ?"), arguments: [userId])
        }
    }
}
