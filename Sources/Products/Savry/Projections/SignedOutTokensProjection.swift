import EventSourcing
import Foundation
import GRDB
import ReadModels
import SavryDomain

/// `signedOutToken`: the tokens their users signed out of, until they would have expired anyway.
/// Folds `signed-out` (and drops every token already past its expiry at that event's time, so the
/// table holds at most 30 days of sign-outs) and `user-erased` (an erased user's tokens open
/// nothing anyway).
struct SignedOutTokensProjection: Projection {
    let name = "savry-signed-out-tokens"
    let version = 1
    let tables = ["signedOutToken"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "signedOutToken") { t in
            t.primaryKey { t.column("userId", .integer); t.column("tokenId", .text) }
            t.column("expiresAt", .integer).notNull()
        }
        try db.create(index: "signedOutTokenByExpiry", on: "signedOutToken", columns: ["expiresAt"])
    }

    func apply(_ recorded: Recorded<SavryEvent>, _ db: Database) throws {
        switch recorded.event {
        case .signedOut(let signedOut):
            try db.run("DELETE FROM signedOutToken WHERE expiresAt < ?", [Int64(recorded.recordedAt.timeIntervalSince1970)])
            try db.run(
                "INSERT OR IGNORE INTO signedOutToken (userId, tokenId, expiresAt) VALUES (?, ?, ?)",
                [signedOut.userId, signedOut.tokenId, signedOut.expiresAt]
            )
        case .userErased(let erased):
            try db.run("DELETE FROM signedOutToken WHERE userId = ?", [erased.userId])
        case .identityClaimed, .userRegistered, .recipeCreated, .recipeUpdated, .recipeDeleted:
            break
        }
    }
}

/// Whether a user signed out of a token.
public struct SignedOutTokens: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    public func contains(userId: Int64, tokenId: String) throws -> Bool {
        try database.statement { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM signedOutToken WHERE userId = ? AND tokenId = ?", arguments: [userId, tokenId]) ?? false
        }
    }
}
