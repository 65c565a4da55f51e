import GRDB

public struct UserSummary: Sendable, Equatable {
    public var userId: Int64
    public var name: String
    public var email: String?
    public var avatarUrl: String?
}

/// Reads user profiles.
public struct UserQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    public func user(id userId: Int64) throws -> UserSummary? {
        try database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT userId, name, email, avatarUrl FROM user WHERE userId = ?", arguments: [userId]).map {
                UserSummary(userId: $0["userId"], name: $0["name"], email: $0["email"], avatarUrl: $0["avatarUrl"])
            }
        }
    }
}
