import EventSourcing
import Foundation
import GRDB
import NewsDomain
import ReadModels

/// Each user's preferences as last set: `newsPreferences(userId, focusProfile, holdings)`, holdings as
/// JSON (`[{"ticker", "label", "notes"}]`).
struct PreferencesProjection: Projection {
    let name = "news-preferences"
    let version = 1
    let tables = ["newsPreferences"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "newsPreferences") { t in
            t.primaryKey("userId", .text)
            t.column("focusProfile", .text).notNull()
            t.column("holdings", .text).notNull()
        }
    }

    func apply(_ recorded: Recorded<NewsEvent>, _ db: Database) throws {
        switch recorded.event {
        case .preferencesUpdated(let e):
            try db.run("INSERT OR REPLACE INTO newsPreferences (userId, focusProfile, holdings) VALUES (?, ?, ?)", [
                e.userId, e.focusProfile.rawValue, try StoriesProjection.json(e.holdings),
            ])
        case .articleIngested, .userErased:
            break
        }
    }
}
