import ReadModels
import Foundation
import GRDB

/// Someone in the caller's friends list: a friend, a pending request either way, or a user they blocked.
public struct FriendItem: Sendable, Equatable {
    public enum Status: String, Sendable { case accepted, pending, blocked }
    public enum Direction: String, Sendable { case incoming, outgoing }

    public var userId: Int64
    public var name: String
    public var avatarUrl: String?
    public var favoriteGenres: [String]
    public var mutualFriends: Int
    public var status: Status
    /// For pending requests: who sent it.
    public var direction: Direction?
    public var watchedCount: Int
    public var lastActiveAt: Int64
}

public struct FriendRequestItem: Sendable, Equatable {
    /// The log position of the request.
    public var requestId: Int64
    public var userId: Int64
    public var name: String
    public var avatarUrl: String?
    public var mutualFriends: Int
    public var direction: FriendItem.Direction
    public var requestedAt: Int64
}

public struct FriendSuggestion: Sendable, Equatable {
    public var userId: Int64
    public var name: String
    public var avatarUrl: String?
    public var mutualFriends: Int
    public var sharedGenres: [String]
    /// 0–100: half taste similarity (cosine of liked-genre counts), half mutual friends (5 or more counts in full).
    public var matchScore: Int
}

/// How the caller stands with another user.
public enum Relationship: String, Sendable {
    case none, friends
    case pendingOutgoing = "pending_outgoing"
    case pendingIncoming = "pending_incoming"
    case blocked
    case blockedBy = "blocked_by"
}

/// Reads the social graph.
public struct SocialQueries: Sendable {
    let database: ReadDatabase
    static let suggestionCount = 10
    static let candidateCount = 50

    public init(database: ReadDatabase) {
        self.database = database
    }

    /// Friends (most recently active first), then pending requests (newest first), then blocked users.
    public func friends(of userId: Int64) throws -> [FriendItem] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT x.*, u.name, u.avatarUrl, u.favoriteGenres, u.lastActiveAt, COALESCE(m.mutualCount, 0) AS mutual
                FROM (SELECT friendId AS userId, 'accepted' AS status, NULL AS direction, 0 AS rank, since AS at FROM friendship WHERE userId = ?1
                      UNION ALL SELECT toUserId, 'pending', 'outgoing', 1, position FROM friendRequest WHERE fromUserId = ?1
                      UNION ALL SELECT fromUserId, 'pending', 'incoming', 1, position FROM friendRequest WHERE toUserId = ?1
                      UNION ALL SELECT blockedUserId, 'blocked', NULL, 2, blockedAt FROM userBlock WHERE userId = ?1) x
                JOIN user u ON u.userId = x.userId
                LEFT JOIN mutualFriend m ON m.userId = ?1 AND m.otherId = x.userId
                ORDER BY x.rank, CASE x.rank WHEN 0 THEN u.lastActiveAt ELSE x.at END DESC, x.userId
                """, arguments: [userId]).map { row in
                let friendId: Int64 = row["userId"]
                let status: String = row["status"]
                return FriendItem(
                    userId: friendId, name: row["name"], avatarUrl: row["avatarUrl"],
                    favoriteGenres: try UserQueries.favoriteGenres(friendId, chosen: row["favoriteGenres"], db),
                    mutualFriends: row["mutual"], status: FriendItem.Status(rawValue: status) ?? .accepted,
                    direction: (row["direction"] as String?).flatMap(FriendItem.Direction.init(rawValue:)),
                    watchedCount: try UserQueries.watchedCount(friendId, db), lastActiveAt: row["lastActiveAt"]
                )
            }
        }
    }

    /// Pending requests sent to (`incoming`) or by (`outgoing`) the user, newest first.
    public func requests(of userId: Int64, direction: FriendItem.Direction, limit: Int, offset: Int) throws -> Page<FriendRequestItem> {
        let (mine, theirs) = direction == .incoming ? ("toUserId", "fromUserId") : ("fromUserId", "toUserId")
        return try database.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM friendRequest WHERE \(mine) = ?", arguments: [userId]) ?? 0
            let items = try Row.fetchAll(db, sql: """
                SELECT r.position, r.\(theirs) AS userId, r.requestedAt, u.name, u.avatarUrl, COALESCE(m.mutualCount, 0) AS mutual
                FROM friendRequest r JOIN user u ON u.userId = r.\(theirs)
                LEFT JOIN mutualFriend m ON m.userId = ?1 AND m.otherId = r.\(theirs)
                WHERE r.\(mine) = ?1
                ORDER BY r.position DESC LIMIT ?2 OFFSET ?3
                """, arguments: [userId, limit, offset]).map { row in
                FriendRequestItem(
                    requestId: row["position"], userId: row["userId"], name: row["name"], avatarUrl: row["avatarUrl"],
                    mutualFriends: row["mutual"], direction: direction, requestedAt: row["requestedAt"]
                )
            }
            return Page(items: items, totalCount: total)
        }
    }

    public func request(from fromUserId: Int64, to toUserId: Int64) throws -> FriendRequestItem? {
        try database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT r.position, r.requestedAt, u.name, u.avatarUrl, COALESCE(m.mutualCount, 0) AS mutual
                FROM friendRequest r JOIN user u ON u.userId = r.toUserId
                LEFT JOIN mutualFriend m ON m.userId = r.fromUserId AND m.otherId = r.toUserId
                WHERE r.fromUserId = ? AND r.toUserId = ?
                """, arguments: [fromUserId, toUserId]).map { row in
                FriendRequestItem(
                    requestId: row["position"], userId: toUserId, name: row["name"], avatarUrl: row["avatarUrl"],
                    mutualFriends: row["mutual"], direction: .outgoing, requestedAt: row["requestedAt"]
                )
            }
        }
    }

    public func relationship(of userId: Int64, to otherId: Int64) throws -> Relationship {
        try database.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM friendship WHERE userId = ?1 AND friendId = ?2) AS friends,
                       EXISTS (SELECT 1 FROM friendRequest WHERE fromUserId = ?1 AND toUserId = ?2) AS outgoing,
                       EXISTS (SELECT 1 FROM friendRequest WHERE fromUserId = ?2 AND toUserId = ?1) AS incoming,
                       EXISTS (SELECT 1 FROM userBlock WHERE userId = ?1 AND blockedUserId = ?2) AS blocked,
                       EXISTS (SELECT 1 FROM userBlock WHERE userId = ?2 AND blockedUserId = ?1) AS blockedBy
                """, arguments: [userId, otherId])
            guard let row else { return .none }
            if row["blockedBy"] { return .blockedBy }
            if row["blocked"] { return .blocked }
            if row["friends"] { return .friends }
            if row["outgoing"] { return .pendingOutgoing }
            if row["incoming"] { return .pendingIncoming }
            return .none
        }
    }

    public func mutualFriends(_ userId: Int64, _ otherId: Int64) throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT mutualCount FROM mutualFriend WHERE userId = ? AND otherId = ?", arguments: [userId, otherId]) ?? 0
        }
    }

    /// People the user may know: friends of friends first, topped up with people whose liked
    /// genres match when there are too few; never friends, pending requests or blocks either way.
    public func suggestions(for userId: Int64) throws -> [FriendSuggestion] {
        try database.read { db in
            var candidates: [Int64: Int] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT otherId, mutualCount FROM mutualFriend WHERE userId = ?1 AND \(Self.eligible("otherId"))
                ORDER BY mutualCount DESC, otherId LIMIT ?2
                """, arguments: [userId, Self.candidateCount]) {
                candidates[row["otherId"]] = row["mutualCount"]
            }
            let mine = try Self.genreVectors([userId], db)[userId] ?? [:]
            if candidates.count < Self.suggestionCount {
                let topGenre = mine.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
                let (sql, arguments): (String, StatementArguments) = if let topGenre {
                    ("SELECT c.userId FROM userGenre c WHERE c.genre = ?3 AND \(Self.eligible("c.userId")) ORDER BY c.likedCount DESC, c.userId LIMIT ?2",
                     [userId, Self.candidateCount, topGenre])
                } else {
                    ("SELECT c.userId FROM user c WHERE \(Self.eligible("c.userId")) ORDER BY c.lastActiveAt DESC, c.userId LIMIT ?2", [userId, Self.candidateCount])
                }
                for other in try Int64.fetchAll(db, sql: sql, arguments: arguments) where candidates[other] == nil {
                    candidates[other] = 0
                }
            }
            let myTop = Self.top(mine, 5)
            let ids = Array(candidates.keys)
            let vectors = try Self.genreVectors(ids, db)
            let users = try Row.fetchAll(db, sql: "SELECT userId, name, avatarUrl FROM user WHERE userId IN (\(databaseQuestionMarks(count: ids.count)))",
                                         arguments: StatementArguments(ids))
                .reduce(into: [Int64: Row]()) { $0[$1["userId"]] = $1 }
            return candidates.compactMap { otherId, mutual -> FriendSuggestion? in
                guard let user = users[otherId] else { return nil }
                let theirs = vectors[otherId] ?? [:]
                let theirTop = Set(Self.top(theirs, 5))
                let score = 0.5 * Self.cosine(mine, theirs) + 0.5 * Double(min(mutual, 5)) / 5
                return FriendSuggestion(
                    userId: otherId, name: user["name"], avatarUrl: user["avatarUrl"], mutualFriends: mutual,
                    sharedGenres: Array(myTop.filter(theirTop.contains).prefix(3)), matchScore: Int((score * 100).rounded())
                )
            }
            .sorted { ($1.matchScore, $1.mutualFriends, $0.userId) < ($0.matchScore, $0.mutualFriends, $1.userId) }
            .prefix(Self.suggestionCount).map { $0 }
        }
    }

    /// SQL: `column` (qualified, so the subqueries cannot capture it) is another user the user `?1` could be suggested.
    private static func eligible(_ column: String) -> String {
        """
        \(column) != ?1
        AND \(column) IN (SELECT userId FROM user WHERE erasedAt IS NULL)
        AND NOT EXISTS (SELECT 1 FROM friendship WHERE userId = ?1 AND friendId = \(column))
        AND NOT EXISTS (SELECT 1 FROM friendRequest WHERE (fromUserId = ?1 AND toUserId = \(column)) OR (fromUserId = \(column) AND toUserId = ?1))
        AND NOT EXISTS (SELECT 1 FROM userBlock WHERE (userId = ?1 AND blockedUserId = \(column)) OR (userId = \(column) AND blockedUserId = ?1))
        """
    }

    /// Each user's liked-genre counts, for all of `userIds` in one query.
    private static func genreVectors(_ userIds: [Int64], _ db: Database) throws -> [Int64: [String: Double]] {
        guard !userIds.isEmpty else { return [:] }
        return try Row.fetchAll(db, sql: """
            SELECT userId, genre, likedCount FROM userGenre WHERE likedCount > 0 AND userId IN (\(databaseQuestionMarks(count: userIds.count)))
            """, arguments: StatementArguments(userIds))
            .reduce(into: [Int64: [String: Double]]()) { vectors, row in vectors[row["userId"], default: [:]][row["genre"]] = row["likedCount"] }
    }

    private static func top(_ vector: [String: Double], _ count: Int) -> [String] {
        vector.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(count).map(\.key)
    }

    private static func cosine(_ a: [String: Double], _ b: [String: Double]) -> Double {
        let dot = a.reduce(0) { $0 + $1.value * (b[$1.key] ?? 0) }
        let norms = (a.values.reduce(0) { $0 + $1 * $1 } * b.values.reduce(0) { $0 + $1 * $1 }).squareRoot()
        return norms > 0 ? dot / norms : 0
    }
}
