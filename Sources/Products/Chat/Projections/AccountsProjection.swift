import ChatDomain
import EventSourcing
import GRDB
import ReadModels

/// The tokens that open the API: one row per live token, by the SHA-256 of the token (the token
/// itself is nowhere at rest). Folds `token-issued`, `token-revoked` and `user-erased` (which takes
/// every token of the user's).
struct AccountsProjection: Projection {
    let name = "chat-accounts"
    let version = 1
    let tables = ["chatToken"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "chatToken") { t in
            t.primaryKey("tokenHash", .text)
            t.column("userId", .integer).notNull().indexed()
            t.column("issuedAt", .integer).notNull()
        }
    }

    func apply(_ recorded: Recorded<ChatEvent>, _ db: Database) throws {
        switch recorded.event {
        case .tokenIssued(let e):
            try db.run("INSERT OR REPLACE INTO chatToken (tokenHash, userId, issuedAt) VALUES (?, ?, ?)", [
                e.tokenHash, e.userId, ChatTime.microseconds(recorded.recordedAt),
            ])
        case .tokenRevoked(let e):
            try db.run("DELETE FROM chatToken WHERE tokenHash = ? AND userId = ?", [e.tokenHash, e.userId])
        case .userErased(let e):
            try db.run("DELETE FROM chatToken WHERE userId = ?", [e.userId])
        case .identityClaimed, .userRegistered, .passwordRehashed, .sessionStarted, .sessionRenamed, .userMessageSent, .assistantReplied, .assistantFailed:
            break
        }
    }
}
