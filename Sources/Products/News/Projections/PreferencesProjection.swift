import EventSourcing
import Foundation
import GRDB
import NewsDomain
import ReadModels

/// Each user's preferences as set at each log position: `newsPreferences(identity, position,
/// focusProfile, holdings)`, holdings as JSON (`[{"ticker", "label", "notes"}]`), keyed by the
/// `X-User-ID`'s identity stream (`Readers.identity`: a hash, never the id), and each reader's
/// identity in `newsReader(userId, identity)`. The newest row is what the user has now; a feed's later
/// pages rank by the row of their cursor's position. An erased reader's rows go, those they set
/// before readers included.
struct PreferencesProjection: Projection {
    let name = "news-preferences"
    let version = 3
    let tables = ["newsPreferences", "newsReader"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "newsPreferences") { t in
            t.primaryKey { t.column("identity", .text); t.column("position", .integer) }
            t.column("focusProfile", .text).notNull()
            t.column("holdings", .text).notNull()
        }
        // The newest change of anyone's is the head a feed's cursor pins (`NewsQueries.lastPosition`).
        try db.create(index: "newsPreferencesPosition", on: "newsPreferences", columns: ["position"])
        try db.create(table: "newsReader") { t in
            t.primaryKey("userId", .integer)
            t.column("identity", .text).notNull()
        }
    }

    func apply(_ recorded: Recorded<NewsEvent>, _ db: Database) throws {
        switch recorded.event {
        case .preferencesUpdated(let e):
            try insert(identity: Readers.identity(e.userId).stream, e.focusProfile, e.holdings, at: recorded.position, db)
        case .readerClaimed(let claim):
            // The claim's stream is the identity (its subject is sealed, and gone once the reader is):
            // so an erasure folded again finds the rows set before readers too.
            try db.run("INSERT OR REPLACE INTO newsReader (userId, identity) VALUES (?, ?)", [claim.userId, recorded.streamId])
        case .preferencesSet(let set):
            guard let holdings = set.holdings, let identity = try identity(of: set.userId, db) else { return }
            try insert(identity: identity, set.focusProfile, holdings, at: recorded.position, db)
        case .userErased(let erased):
            guard let identity = try identity(of: erased.userId, db) else { return }
            try db.run("DELETE FROM newsPreferences WHERE identity = ?", [identity])
            try db.run("DELETE FROM newsReader WHERE userId = ?", [erased.userId])
        case .articleIngested, .readerRegistered:
            break
        }
    }

    private func identity(of reader: Int64, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT identity FROM newsReader WHERE userId = ?", arguments: [reader])
    }

    private func insert(identity: String, _ focus: FocusProfile, _ holdings: [Holding], at position: UInt64, _ db: Database) throws {
        try db.run("INSERT INTO newsPreferences (identity, position, focusProfile, holdings) VALUES (?, ?, ?, ?)", [
            identity, position, focus.rawValue, try StoriesProjection.json(holdings),
        ])
    }
}
