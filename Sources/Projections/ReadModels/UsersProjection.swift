import Domain
import GRDB

/// User profiles: name, email, avatar, when they joined. Folds `user-registered`.
struct UsersProjection: Projection {
    let name = "users"
    let version = 1
    let tables = ["user"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "user") { t in
            t.primaryKey("userId", .integer)
            t.column("name", .text).notNull()
            t.column("email", .text)
            t.column("avatarUrl", .text)
            t.column("bio", .text)
            t.column("registeredAt", .integer).notNull()
        }
    }

    func apply(_ recorded: Recorded<DomainEvent>, _ db: Database) throws {
        guard case .userRegistered(let user) = recorded.event else { return }
        try db.run("INSERT OR REPLACE INTO user (userId, name, email, avatarUrl, bio, registeredAt) VALUES (?, ?, ?, ?, NULL, ?)", [user.userId, user.name, user.email, user.avatarUrl, recorded.epochSeconds]
        )
    }
}
