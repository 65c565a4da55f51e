import EventSourcing
import Foundation
import GRDB
import NewsDomain
import ReadModels

/// Each user's preferences as set at each log position: `newsPreferences(userId, position,
/// focusProfile, holdings)`, holdings as JSON (`[{"ticker", "label", "notes"}]`). The newest row is
/// what the user has now; a feed's later pages rank by the row of their cursor's position.
struct PreferencesProjection: Projection {
    let name = "news-preferences"
    let version = 2
    let tables = ["newsPreferences"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "newsPreferences") { t in
            t.primaryKey { t.column("userId", .text); t.column("position", .integer) }
            t.column("focusProfile", .text).notNull()
            t.column("holdings", .text).notNull()
        }
        // The newest change of anyone's is the head a feed's cursor pins (`NewsQueries.lastPosition`).
        try db.create(index: "newsPreferencesPosition", on: "newsPreferences", columns: ["position"])
    }

    func apply(_ recorded: Recorded<NewsEvent>, _ db: Database) throws {
        switch recorded.event {
        case .preferencesUpdated(let e):
            try db.run("INSERT INTO newsPreferences (userId, position, focusProfile, holdings) VALUES (?, ?, ?, ?)", [
                e.userId, recorded.position, e.focusProfile.rawValue, try StoriesProjection.json(e.holdings),
            ])
        case .articleIngested, .userErased:
            break
        }
    }
}
