import EventSourcing
import Foundation
import GRDB
import NewsDomain
import ReadModels

/// Articles, read (`ArticleReading`), de-duplicated and clustered into story groups, in log order,
/// so a replay gives the same groups. Each `article-ingested`:
///
/// 1. is a **near-duplicate** of an earlier article published within three days whose SimHash is at
///    most 3 bits away: it joins that article's group and is counted in `dedup_removed`, not
///    clustered again;
/// 2. otherwise adds its terms' document frequencies, becomes a TF-IDF vector, and joins the group
///    (active within two days of it) whose centroid is nearest by cosine, when at least
///    `StoriesProjection.threshold`; otherwise it starts a group.
///
/// A group's title is its first article's; its primary ticker the one more than half its articles
/// mention (scope `TICKER`), else none (`GLOBAL`); its impact level follows from how many outlets
/// cover it and what kind of event it is (`impact`).
struct StoriesProjection: Projection {
    let name = "news-stories"
    let version = 1
    let tables = ["newsArticle", "newsGroup", "newsGroupOutlet", "newsGroupTicker", "newsTerm", "newsCorpus"]

    /// Chosen on seeds 7 and 11 of the synthetic set (validation: 0.25, 0.3, 0.35, 0.4 tried); the
    /// demo's seed is reported, never tuned on (BENCHMARKS.md).
    static let threshold = 0.35
    static let duplicateWindow: Int64 = 3 * 86_400
    static let clusterWindow: Int64 = 2 * 86_400

    func createSchema(_ db: Database) throws {
        try db.create(table: "newsArticle") { t in
            t.primaryKey("position", .integer)
            t.column("url", .text).notNull().unique()
            t.column("title", .text).notNull()
            t.column("source", .text).notNull()
            t.column("publishedAt", .integer).notNull().indexed()
            t.column("description", .text).notNull()
            t.column("body", .text)
            t.column("feed", .text).notNull()
            t.column("reading", .text).notNull()
            t.column("simhash", .integer).notNull()
            t.column("groupId", .integer).notNull().indexed()
            t.column("duplicateOf", .integer)
        }
        try db.create(table: "newsGroup") { t in
            t.primaryKey("groupId", .integer)
            t.column("title", .text).notNull()
            t.column("eventType", .text).notNull()
            t.column("createdAt", .integer).notNull()
            t.column("lastAt", .integer).notNull().indexed()
            t.column("articleCount", .integer).notNull()
            t.column("outletCount", .integer).notNull()
            t.column("primaryTicker", .text)
            t.column("impactLevel", .text).notNull()
            t.column("centroid", .text).notNull()
        }
        try db.create(table: "newsGroupOutlet") { t in
            t.column("groupId", .integer).notNull()
            t.column("source", .text).notNull()
            t.primaryKey(["groupId", "source"])
        }
        try db.create(table: "newsGroupTicker") { t in
            t.column("groupId", .integer).notNull()
            t.column("ticker", .text).notNull().indexed()
            t.column("articles", .integer).notNull()
            t.primaryKey(["groupId", "ticker"])
        }
        try db.create(table: "newsTerm") { t in
            t.primaryKey("term", .text)
            t.column("documents", .integer).notNull()
        }
        try db.create(table: "newsCorpus") { t in
            t.primaryKey("id", .integer)
            t.column("documents", .integer).notNull()
        }
    }

    func apply(_ recorded: Recorded<NewsEvent>, _ db: Database) throws {
        guard case .articleIngested(let article) = recorded.event else { return }
        let reading = ArticleReading.of(title: article.title, description: article.description, body: article.body)
        let terms = Terms.of([article.title, article.description, article.body ?? ""].joined(separator: "\n"))
        let simhash = SimHash.of(terms)
        let (groupId, duplicateOf) = try place(article, terms: terms, simhash: simhash, reading: reading, db)
        try db.run("""
            INSERT INTO newsArticle (position, url, title, source, publishedAt, description, body, feed, reading, simhash, groupId, duplicateOf)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                recorded.position, article.url, article.title, article.source, article.publishedAt, article.description, article.body, article.feed,
                try Self.json(reading), Int64(bitPattern: simhash), groupId, duplicateOf,
            ])
        try db.run("INSERT OR IGNORE INTO newsGroupOutlet (groupId, source) VALUES (?, ?)", [groupId, article.source])
        for ticker in reading.tickers {
            try db.run("""
                INSERT INTO newsGroupTicker (groupId, ticker, articles) VALUES (?, ?, 1)
                ON CONFLICT(groupId, ticker) DO UPDATE SET articles = articles + 1
                """, [groupId, ticker])
        }
        try refresh(groupId, db)
    }

    /// The group the article joins (a new one when none is near), and the article it copies.
    private func place(_ article: ArticleIngested, terms: [String], simhash: UInt64, reading: ArticleReading, _ db: Database) throws -> (Int64, Int64?) {
        let neighbours = try Row.fetchAll(db, sql: """
            SELECT position, simhash, groupId FROM newsArticle WHERE publishedAt BETWEEN ? AND ? AND duplicateOf IS NULL ORDER BY position
            """, arguments: [article.publishedAt - Self.duplicateWindow, article.publishedAt + Self.duplicateWindow])
        if let original = neighbours.first(where: { SimHash.distance(UInt64(bitPattern: $0[1]), simhash) <= SimHash.nearDuplicate }) {
            try db.run("UPDATE newsGroup SET articleCount = articleCount + 1, lastAt = MAX(lastAt, ?) WHERE groupId = ?", [article.publishedAt, original[2] as Int64])
            return (original[2], original[0])
        }
        let vector = try vectorAfterCounting(terms, db)
        var best: (groupId: Int64, similarity: Double, centroid: TermVector, count: Int)?
        for row in try Row.fetchAll(db, sql: """
            SELECT groupId, centroid, articleCount FROM newsGroup WHERE lastAt >= ? AND createdAt <= ? ORDER BY groupId
            """, arguments: [article.publishedAt - Self.clusterWindow, article.publishedAt + Self.clusterWindow]) {
            let centroid = try JSONDecoder().decode(TermVector.self, from: Data((row[1] as String).utf8))
            let similarity = vector.cosine(centroid)
            if similarity >= Self.threshold, similarity > (best?.similarity ?? -1) { best = (row[0], similarity, centroid, row[2]) }
        }
        if let best {
            try db.run("UPDATE newsGroup SET articleCount = articleCount + 1, lastAt = MAX(lastAt, ?), createdAt = MIN(createdAt, ?), centroid = ? WHERE groupId = ?", [
                article.publishedAt, article.publishedAt, try Self.json(best.centroid.merged(vector, selfCount: best.count)), best.groupId,
            ])
            return (best.groupId, nil)
        }
        let groupId = (try Int64.fetchOne(db, sql: "SELECT MAX(groupId) FROM newsGroup") ?? 0) + 1
        try db.run("""
            INSERT INTO newsGroup (groupId, title, eventType, createdAt, lastAt, articleCount, outletCount, primaryTicker, impactLevel, centroid)
            VALUES (?, ?, ?, ?, ?, 1, 0, NULL, 'Very Low', ?)
            """, [groupId, article.title, reading.eventType.rawValue, article.publishedAt, article.publishedAt, try Self.json(vector)])
        return (groupId, nil)
    }

    /// The article's TF-IDF vector, its terms first counted into the corpus.
    private func vectorAfterCounting(_ terms: [String], _ db: Database) throws -> TermVector {
        let counts = terms.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        var frequencies: [String: Int] = [:]
        for term in counts.keys.sorted() {
            frequencies[term] = try Int.fetchOne(db, sql: """
                INSERT INTO newsTerm (term, documents) VALUES (?, 1) ON CONFLICT(term) DO UPDATE SET documents = documents + 1 RETURNING documents
                """, arguments: [term])
        }
        let documents = try Int.fetchOne(db, sql: """
            INSERT INTO newsCorpus (id, documents) VALUES (1, 1) ON CONFLICT(id) DO UPDATE SET documents = documents + 1 RETURNING documents
            """) ?? 1
        return TermVector.tfidf(counts, documents: documents) { frequencies[$0] ?? 1 }
    }

    /// The group's outlet count, primary ticker and impact level, from its rows.
    private func refresh(_ groupId: Int64, _ db: Database) throws {
        let outlets = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM newsGroupOutlet WHERE groupId = ?", arguments: [groupId]) ?? 0
        guard let group = try Row.fetchOne(db, sql: "SELECT articleCount, eventType FROM newsGroup WHERE groupId = ?", arguments: [groupId]) else { return }
        let articles: Int = group[0]
        let primary = try String.fetchOne(db, sql: """
            SELECT ticker FROM newsGroupTicker WHERE groupId = ? AND articles * 2 > ? ORDER BY articles DESC, ticker LIMIT 1
            """, arguments: [groupId, articles])
        let eventType = ArticleReading.EventType(rawValue: group[1]) ?? .general
        try db.run("UPDATE newsGroup SET outletCount = ?, primaryTicker = ?, impactLevel = ? WHERE groupId = ?", [
            outlets, primary, Self.impact(outlets: outlets, eventType: eventType), groupId,
        ])
    }

    /// `High`: four or more outlets, or three on results, rates, a deal or the economy. `Moderate`:
    /// two or more. `Low`: one, on a recognised kind of event. `Very Low`: the rest.
    static func impact(outlets: Int, eventType: ArticleReading.EventType) -> String {
        if outlets >= 4 || (outlets >= 3 && [.earnings, .rates, .merger, .macro].contains(eventType)) { return "High" }
        if outlets >= 2 { return "Moderate" }
        return eventType == .general ? "Very Low" : "Low"
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try sortedKeys.encode(value), as: UTF8.self)
    }

    private static let sortedKeys: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
}
