import GRDB
import ReadModels

/// A session as the read model holds it, with its messages oldest first. Times are epoch microseconds.
public struct StoredSession: Sendable, Equatable {
    public struct Message: Sendable, Equatable {
        public var messageId: String
        public var role: String
        public var content: String
        public var timestamp: Int64
    }

    public var sessionId: Int64
    public var title: String
    public var tone: String
    public var lang: String
    public var createdAt: Int64
    public var updatedAt: Int64
    public var messages: [Message]
}

/// Reads sessions and tokens.
public struct ChatQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    /// The user a live token (by its SHA-256) belongs to.
    public func userId(ofTokenHash hash: String) throws -> Int64? {
        try database.statement { db in
            try Int64.fetchOne(db, sql: "SELECT userId FROM chatToken WHERE tokenHash = ?", arguments: [hash])
        }
    }

    /// The user's newest-updated `limit` sessions, newest first, each with every message.
    public func sessions(of userId: Int64, limit: Int) throws -> [StoredSession] {
        try database.read { db in
            try sessions(db, sql: """
                SELECT sessionId, title, tone, lang, createdAt, updatedAt FROM chatSession WHERE userId = ?
                ORDER BY updatedAt DESC, sessionId DESC LIMIT ?
                """, arguments: [userId, limit])
        }
    }

    /// The session, if it is the user's.
    public func session(_ sessionId: Int64, of userId: Int64) throws -> StoredSession? {
        try database.read { db in
            try sessions(db, sql: """
                SELECT sessionId, title, tone, lang, createdAt, updatedAt FROM chatSession WHERE sessionId = ? AND userId = ?
                """, arguments: [sessionId, userId]).first
        }
    }

    private func sessions(_ db: Database, sql: String, arguments: StatementArguments) throws -> [StoredSession] {
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
        var messages: [Int64: [StoredSession.Message]] = [:]
        let ids = rows.map { $0[0] as Int64 }
        for start in stride(from: 0, to: ids.count, by: 100) {
            let chunk = Array(ids[start..<min(start + 100, ids.count)])
            let marks = chunk.map { _ in "?" }.joined(separator: ",")
            for row in try Row.fetchAll(db, sql: """
                SELECT sessionId, messageId, role, content, timestamp FROM chatMessage WHERE sessionId IN (\(marks)) ORDER BY position
                """, arguments: StatementArguments(chunk)) {
                messages[row[0], default: []].append(StoredSession.Message(messageId: row[1], role: row[2], content: row[3], timestamp: row[4]))
            }
        }
        return rows.map { row in
            StoredSession(
                sessionId: row[0], title: row[1], tone: row[2], lang: row[3], createdAt: row[4], updatedAt: row[5], messages: messages[row[0]] ?? []
            )
        }
    }
}
