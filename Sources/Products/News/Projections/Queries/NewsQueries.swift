import Foundation
import GRDB
import NewsDomain
import ReadModels

public struct StoredArticle: Sendable, Equatable {
    public var position: Int64
    public var url: String
    public var title: String
    public var source: String
    public var publishedAt: Int64
    public var description: String
    public var body: String?
    public var reading: ArticleReading
    public var groupId: Int64
    /// Outlets covering its story group.
    public var outlets: Int
}

public struct StoredGroup: Sendable, Equatable {
    public var groupId: Int64
    public var title: String
    public var impactLevel: String
    public var primaryTicker: String?
    public var articleCount: Int
    public var createdAt: Int64
    public var scope: String { primaryTicker == nil ? "GLOBAL" : "TICKER" }
}

public struct StoredPreferences: Sendable, Equatable {
    public var focusProfile: FocusProfile
    public var holdings: [Holding]
    /// What a ranking depends on: the focus and the tickers held.
    public var rankingKey: String { "\(focusProfile.rawValue):\(holdings.map(\.ticker).joined(separator: ","))" }
    public static let none = StoredPreferences(focusProfile: .balanced, holdings: [])
}

/// Reads articles, groups and preferences.
public struct NewsQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    /// The newest log position a ranking reads: an article's or a preference change's. A cursor pins
    /// it, so that a later page sees neither articles nor preferences recorded after its first.
    public func lastPosition() throws -> Int64 {
        try database.statement { db in try Int64.fetchOne(db, sql: Self.rankedHead) ?? 0 }
    }

    private static let rankedHead = """
        SELECT MAX(position) FROM (SELECT MAX(position) AS position FROM newsArticle UNION ALL SELECT MAX(position) FROM newsPreferences)
        """

    /// The articles that are not copies, published within `seconds` of the data's clock (the newest
    /// publication time held), each with its story's outlet count, all as they stood once the articles
    /// through log position `through` were folded (the latest when nil): a page pinned there ranks
    /// the same whatever arrives after it.
    public func recent(within seconds: Int64, through pinned: Int64? = nil) throws -> (articles: [StoredArticle], through: Int64, clock: Int64?) {
        try database.read { db in
            let through = try pinned ?? Int64.fetchOne(db, sql: Self.rankedHead) ?? 0
            guard let clock = try Int64.fetchOne(db, sql: """
                SELECT publishedAt FROM newsArticle WHERE position <= ? ORDER BY publishedAt DESC LIMIT 1
                """, arguments: [through]) else { return ([], through, nil) }
            let articles = try Row.fetchAll(db, sql: """
                SELECT \(Self.articleColumns) FROM newsArticle a JOIN newsGroup g ON g.groupId = a.groupId
                WHERE a.duplicateOf IS NULL AND a.publishedAt >= ? AND a.position <= ? ORDER BY a.position
                """, arguments: [clock - seconds, through]).map(Self.article)
            // The stories an article folded after `through` joined had only their outlets before it.
            let outletsThen = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
                SELECT groupId, COUNT(*) FROM newsGroupOutlet
                WHERE groupId IN (SELECT groupId FROM newsArticle WHERE position > :through) AND firstPosition <= :through GROUP BY groupId
                """, arguments: ["through": through]).map { (row: Row) -> (Int64, Int) in (row[0], row[1]) })
            return (outletsThen.isEmpty ? articles : articles.map { article in
                var then = article
                then.outlets = outletsThen[article.groupId] ?? article.outlets
                return then
            }, through, clock)
        }
    }

    /// Every article of the group, copies included, in the order published.
    public func articles(inGroup groupId: Int64) throws -> [StoredArticle] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.articleColumns) FROM newsArticle a JOIN newsGroup g ON g.groupId = a.groupId WHERE a.groupId = ? ORDER BY a.publishedAt, a.position
                """, arguments: [groupId]).map(Self.article)
        }
    }

    private static let articleColumns = "a.position, a.url, a.title, a.source, a.publishedAt, a.description, a.body, a.reading, a.groupId, g.outletCount"
    private static let readings = JSONDecoder()

    private static func article(_ row: Row) throws -> StoredArticle {
        StoredArticle(
            position: row[0], url: row[1], title: row[2], source: row[3], publishedAt: row[4], description: row[5], body: row[6],
            reading: try readings.decode(ArticleReading.self, from: Data((row[7] as String).utf8)), groupId: row[8], outlets: row[9]
        )
    }

    public struct Day: Sendable {
        public var groups: [StoredGroup]
        /// Articles published that day, copies included.
        public var articles: Int
        /// Of those, copies of an earlier article.
        public var duplicates: Int
    }

    /// The groups with an article published in `[start, start + 1 day)`, and that day's counts.
    public func day(startingAt start: Int64) throws -> Day {
        try database.read { db in
            let groups = try Row.fetchAll(db, sql: """
                SELECT g.groupId, g.title, g.impactLevel, g.primaryTicker, g.articleCount, g.createdAt FROM newsGroup g
                WHERE g.groupId IN (SELECT groupId FROM newsArticle WHERE publishedAt >= ? AND publishedAt < ?)
                ORDER BY g.groupId
                """, arguments: [start, start + 86_400]).map { row in
                StoredGroup(groupId: row[0], title: row[1], impactLevel: row[2], primaryTicker: row[3], articleCount: row[4], createdAt: row[5])
            }
            let counts = try Row.fetchOne(db, sql: """
                SELECT COUNT(*), COUNT(duplicateOf) FROM newsArticle WHERE publishedAt >= ? AND publishedAt < ?
                """, arguments: [start, start + 86_400])
            return Day(groups: groups, articles: counts?[0] ?? 0, duplicates: counts?[1] ?? 0)
        }
    }

    /// What the `X-User-ID` has set, as of log position `position` (nil: now).
    public func preferences(of userId: String, asOf position: Int64? = nil) throws -> StoredPreferences {
        try database.statement { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT focusProfile, holdings FROM newsPreferences WHERE identity = ? AND position <= ? ORDER BY position DESC LIMIT 1
                """, arguments: [Readers.identity(userId).stream, position ?? .max]) else {
                return .none
            }
            return StoredPreferences(
                focusProfile: FocusProfile(rawValue: row[0]) ?? .balanced,
                holdings: try JSONDecoder().decode([Holding].self, from: Data((row[1] as String).utf8))
            )
        }
    }

    /// Every article's group, by URL: what clustering is measured by.
    public func groupsByURL() throws -> [String: (group: Int64, duplicateOf: Int64?, position: Int64)] {
        try database.read { db in
            var groups: [String: (Int64, Int64?, Int64)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT url, groupId, duplicateOf, position FROM newsArticle") { groups[row[0]] = (row[1], row[2], row[3]) }
            return groups
        }
    }
}
