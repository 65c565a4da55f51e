import ChatDomain
import EventSourcing
import GRDB
import ReadModels

/// Each user's sessions and their messages, as `GET /api/chat/sessions/` lists them. Times are epoch
/// microseconds; a session's `updatedAt` is the time of its latest event (start, rename, message or
/// reply). A session or message whose content reads as absent (its user erased) gets no row, and
/// `user-erased` deletes the user's rows, so folding live and folding again after an erasure leave
/// the same tables.
struct SessionsProjection: Projection {
    let name = "chat-sessions"
    let version = 1
    let tables = ["chatSession", "chatMessage"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "chatSession") { t in
            t.primaryKey("sessionId", .integer)
            t.column("userId", .integer).notNull()
            t.column("title", .text).notNull()
            t.column("tone", .text).notNull()
            t.column("lang", .text).notNull()
            t.column("createdAt", .integer).notNull()
            t.column("updatedAt", .integer).notNull()
        }
        try db.create(index: "chatSessionByUserAndUpdate", on: "chatSession", columns: ["userId", "updatedAt"])
        try db.create(table: "chatMessage") { t in
            t.primaryKey("position", .integer)
            t.column("sessionId", .integer).notNull()
            t.column("userId", .integer).notNull()
            t.column("messageId", .text).notNull()
            t.column("role", .text).notNull()
            t.column("content", .text).notNull()
            t.column("timestamp", .integer).notNull()
        }
        try db.create(index: "chatMessageBySession", on: "chatMessage", columns: ["sessionId", "position"])
        try db.create(index: "chatMessageByUser", on: "chatMessage", columns: ["userId"])
    }

    func apply(_ recorded: Recorded<ChatEvent>, _ db: Database) throws {
        let time = ChatTime.microseconds(recorded.recordedAt)
        switch recorded.event {
        case .sessionStarted(let e):
            guard let title = e.title else { return }
            try db.run("""
                INSERT OR REPLACE INTO chatSession (sessionId, userId, title, tone, lang, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [e.sessionId, e.userId, title, e.tone, e.lang, time, time])
        case .sessionRenamed(let e):
            guard let title = e.title else { return }
            try db.run("UPDATE chatSession SET title = ?, updatedAt = ? WHERE sessionId = ?", [title, time, e.sessionId])
        case .userMessageSent(let e):
            guard let content = e.content else { return }
            try message(recorded.position, e.sessionId, e.userId, e.messageId, "user", content, time, db)
        case .assistantReplied(let e):
            guard let content = e.content else { return }
            try message(recorded.position, e.sessionId, e.userId, e.messageId, "assistant", content, time, db)
        case .userErased(let e):
            try db.run("DELETE FROM chatMessage WHERE userId = ?", [e.userId])
            try db.run("DELETE FROM chatSession WHERE userId = ?", [e.userId])
        case .identityClaimed, .userRegistered, .passwordRehashed, .tokenIssued, .tokenRevoked, .assistantFailed:
            break
        }
    }

    /// A message, in a session that has a row (none when its start was unreadable).
    private func message(_ position: UInt64, _ sessionId: Int64, _ userId: Int64, _ messageId: String, _ role: String, _ content: String, _ time: Int64, _ db: Database) throws {
        try db.run("UPDATE chatSession SET updatedAt = ? WHERE sessionId = ?", [time, sessionId])
        guard db.changesCount > 0 else { return }
        try db.run("""
            INSERT OR REPLACE INTO chatMessage (position, sessionId, userId, messageId, role, content, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [position, sessionId, userId, messageId, role, content, time])
    }
}
