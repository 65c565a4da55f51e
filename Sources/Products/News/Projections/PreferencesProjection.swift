import EventSourcing
import Foundation
import GRDB
import NewsDomain
import ReadModels

/// Each user's preferences as set at each log position: `newsPreferences(identity, position,
/// focusProfile, holdings, readerId)`, holdings as JSON (`[{"ticker", "label", "notes"}]`), keyed by
/// the `X-User-ID`'s identity stream (`Readers.identity`: a hash, never the id), each row its
/// reader's (those set before readers, the id's first reader's), and each reader's identity in
/// `newsReader(userId, identity)`. The newest row is what the user has now; a feed's later pages rank
/// by the row of their cursor's position. An erased reader's rows go, and only theirs: an erasure
/// recorded after the id's next reader began leaves that reader's rows.
struct PreferencesProjection: Projection {
    let name = "news-preferences"
    let version = 3
    let tables = ["newsPreferences", "newsReader"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "newsPreferences") { t in
            t.primaryKey { t.column("identity", .text); t.column("position", .integer) }
            t.column("focusProfile", .text).notNull()
            t.column("holdings", .text).notNull()
            t.column("readerId", .integer)
        }
        // The newest change of anyone's is the head a feed's cursor pins (`NewsQueries.lastPosition`).
        try db.create(index: "newsPreferencesPosition", on: "newsPreferences", columns: ["position"])
        try db.create(index: "newsPreferencesReader", on: "newsPreferences", columns: ["readerId"])
        try db.create(table: "newsReader") { t in
            t.primaryKey("userId", .integer)
            t.column("identity", .text).notNull()
        }
    }

    func apply(_ recorded: Recorded<NewsEvent>, _ db: Database) throws {
        switch recorded.event {
        case .preferencesUpdated(let e):
            try insert(identity: Readers.identity(e.userId).stream, reader: nil, e.focusProfile, e.holdings, at: recorded.position, db)
        case .readerClaimed(let claim):
            // The claim's stream is the identity (its subject is sealed, and gone once the reader is).
            // The id's first reader takes the rows set before readers, as its first change starts from them.
            try db.run("INSERT OR REPLACE INTO newsReader (userId, identity) VALUES (?, ?)", [claim.userId, recorded.streamId])
            try db.run("UPDATE newsPreferences SET readerId = ? WHERE identity = ? AND readerId IS NULL", [claim.userId, recorded.streamId])
        case .preferencesSet(let set):
            guard let holdings = set.holdings, let identity = try identity(of: set.userId, db) else { return }
            try insert(identity: identity, reader: set.userId, set.focusProfile, holdings, at: recorded.position, db)
        case .userErased(let erased):
            try db.run("DELETE FROM newsPreferences WHERE readerId = ?", [erased.userId])
            try db.run("DELETE FROM newsReader WHERE userId = ?", [erased.userId])
        case .articleIngested, .readerRegistered:
            break
        }
    }

    private func identity(of reader: Int64, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT identity FROM newsReader WHERE userId = ?", arguments: [reader])
    }

    private func insert(identity: String, reader: Int64?, _ focus: FocusProfile, _ holdings: [Holding], at position: UInt64, _ db: Database) throws {
        try db.run("INSERT INTO newsPreferences (identity, position, focusProfile, holdings, readerId) VALUES (?, ?, ?, ?, ?)", [
            identity, position, focus.rawValue, try StoriesProjection.json(holdings), reader,
        ])
    }
}
