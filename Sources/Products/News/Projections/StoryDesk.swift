import Foundation
import GRDB
import NewsDomain

/// What a run of articles is placed against, read once for the run and kept in memory while it is
/// placed in log order: the originals (articles that are not copies) within the copy window, found
/// by SimHash band; the groups active within the cluster window, found by the terms of their
/// centroids; and the document frequencies of the terms met. `write` leaves the tables as placing
/// the articles one at a time through SQL would, and leaves the desk as reading it again would, so
/// the next batch can widen it (`widen`) instead of reading it again.
struct StoryDesk: Sendable {
    struct Original {
        var position: Int64
        var simhash: UInt64
        var groupId: Int64
        var publishedAt: Int64
    }

    private var originals: [Original] = []
    /// The four 16-bit bands of each original's SimHash: two hashes at most 3 bits apart share one.
    private var bands: [[UInt16: [Int]]] = Array(repeating: [:], count: 4)
    private var groups = ActiveGroups()
    private var changedGroups: Set<Int64> = []
    private var documentsByTerm: [String: Int] = [:]
    private var changedTerms: Set<String> = []
    /// Terms no earlier article had, in the order one-at-a-time placing inserts them (the rows'
    /// order, which `verify` compares).
    private var newTerms: [String] = []
    private var documents: Int
    private var documentsChanged = false
    private var lastGroupId: Int64
    /// The publication times of the articles the desk holds what they can meet.
    private var published: ClosedRange<Int64>

    /// Reads what articles published from `earliest` to `latest` can meet.
    init(publishedFrom earliest: Int64, to latest: Int64, _ db: Database) throws {
        documents = try Int.fetchOne(db, sql: "SELECT documents FROM newsCorpus WHERE id = 1") ?? 0
        lastGroupId = try Int64.fetchOne(db, sql: "SELECT MAX(groupId) FROM newsGroup") ?? 0
        published = earliest...latest
        try readOriginals(publishedFrom: earliest - StoriesProjection.duplicateWindow, to: latest + StoriesProjection.duplicateWindow, db)
        try readGroups(lastAt: (earliest - StoriesProjection.clusterWindow)...Int64.max, createdAt: Int64.min...(latest + StoriesProjection.clusterWindow), db)
    }

    /// Widens the desk to also hold what articles published from `earliest` to `latest` can meet,
    /// reading only the margins it lacks; false, unchanged, when it would span more than
    /// `maximumSpan`. What it holds beyond a fresh desk's reach is never met: `original(of:)` and
    /// `nearestGroup` look only within their windows.
    mutating func widen(toHold earliest: Int64, _ latest: Int64, maximumSpan: Int64, _ db: Database) throws -> Bool {
        let wider = min(published.lowerBound, earliest)...max(published.upperBound, latest)
        guard wider.upperBound - wider.lowerBound <= maximumSpan else { return false }
        let (copies, clusters) = (StoriesProjection.duplicateWindow, StoriesProjection.clusterWindow)
        if wider.lowerBound < published.lowerBound {
            try readOriginals(publishedFrom: wider.lowerBound - copies, to: published.lowerBound - copies - 1, db)
            try readGroups(lastAt: (wider.lowerBound - clusters)...(published.lowerBound - clusters - 1), createdAt: Int64.min...(wider.upperBound + clusters), db)
        }
        if wider.upperBound > published.upperBound {
            try readOriginals(publishedFrom: published.upperBound + copies + 1, to: wider.upperBound + copies, db)
            // A group's last article is never older than its first.
            let created = (published.upperBound + clusters + 1)...(wider.upperBound + clusters)
            try readGroups(lastAt: created.lowerBound...Int64.max, createdAt: created, db)
        }
        published = wider
        return true
    }

    private mutating func readOriginals(publishedFrom earliest: Int64, to latest: Int64, _ db: Database) throws {
        for row in try Row.fetchAll(db, sql: """
            SELECT position, simhash, groupId, publishedAt FROM newsArticle WHERE publishedAt BETWEEN ? AND ? AND duplicateOf IS NULL
            """, arguments: [earliest, latest]) {
            remember(Original(position: row[0], simhash: UInt64(bitPattern: row[1]), groupId: row[2], publishedAt: row[3]))
        }
    }

    /// The groups whose times fall in both ranges, less those held already (a copy's group read by itself).
    private mutating func readGroups(lastAt: ClosedRange<Int64>, createdAt: ClosedRange<Int64>, _ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "\(Self.groupColumns) WHERE lastAt BETWEEN ? AND ? AND createdAt BETWEEN ? AND ? ORDER BY groupId", arguments: [
            lastAt.lowerBound, lastAt.upperBound, createdAt.lowerBound, createdAt.upperBound,
        ]) where groups.slot(of: row[0]) == nil {
            try add(row)
        }
    }

    /// The first original (in log order) published within the copy window of `publishedAt` whose
    /// SimHash is at most `SimHash.nearDuplicate` bits from `simhash`.
    func original(of simhash: UInt64, publishedAt: Int64) -> Original? {
        var found: Original?
        for band in 0..<4 {
            for index in bands[band][Self.band(band, of: simhash)] ?? [] {
                let candidate = originals[index]
                guard abs(candidate.publishedAt - publishedAt) <= StoriesProjection.duplicateWindow,
                      SimHash.distance(candidate.simhash, simhash) <= SimHash.nearDuplicate,
                      candidate.position < found?.position ?? .max else { continue }
                found = candidate
            }
        }
        return found
    }

    /// A copy joins its original's group.
    mutating func addCopy(to groupId: Int64, publishedAt: Int64, _ db: Database) throws {
        if groups.slot(of: groupId) == nil {
            guard let row = try Row.fetchOne(db, sql: "\(Self.groupColumns) WHERE groupId = ?", arguments: [groupId]) else { return }
            try add(row)
        }
        guard let slot = groups.slot(of: groupId) else { return }
        groups.count(copyIn: slot, publishedAt: publishedAt)
        changedGroups.insert(groupId)
    }

    /// The article's TF-IDF vector, its terms first counted into the corpus.
    mutating func vectorAfterCounting(_ terms: [String], _ db: Database) throws -> TermVector {
        let counts = terms.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        for term in counts.keys.sorted() {
            let known = try documentsByTerm[term] ?? Int.fetchOne(db, sql: "SELECT documents FROM newsTerm WHERE term = ?", arguments: [term])
            if known == nil { newTerms.append(term) }
            documentsByTerm[term] = (known ?? 0) + 1
            changedTerms.insert(term)
        }
        documents += 1
        documentsChanged = true
        return TermVector.tfidf(counts, documents: documents) { documentsByTerm[$0] ?? 1 }
    }

    /// The group the article with `vector` joins, if one is near enough (`ActiveGroups.nearest`).
    mutating func nearestGroup(to vector: TermVector, publishedAt: Int64) -> Int64? {
        groups.nearest(to: vector, publishedAt: publishedAt)
    }

    mutating func join(_ groupId: Int64, vector: TermVector, publishedAt: Int64) {
        guard let slot = groups.slot(of: groupId) else { return }
        groups.join(slot, vector: vector, publishedAt: publishedAt)
        changedGroups.insert(groupId)
    }

    mutating func startGroup(title: String, eventType: String, vector: TermVector, publishedAt: Int64) -> Int64 {
        lastGroupId += 1
        groups.add(.init(
            id: lastGroupId, title: title, eventType: eventType, createdAt: publishedAt, lastAt: publishedAt, articleCount: 1, centroid: vector, isNew: true
        ))
        changedGroups.insert(lastGroupId)
        return lastGroupId
    }

    mutating func remember(_ original: Original) {
        originals.append(original)
        for band in 0..<4 { bands[band][Self.band(band, of: original.simhash), default: []].append(originals.count - 1) }
    }

    /// Writes the counts and the groups changed, and counts changes afresh from there; returns the
    /// groups changed, in id order.
    mutating func write(_ db: Database) throws -> [Int64] {
        defer { settle() }
        for term in newTerms { try db.run("INSERT INTO newsTerm (term, documents) VALUES (?, ?)", [term, documentsByTerm[term]]) }
        for term in changedTerms.subtracting(newTerms).sorted() {
            try db.run("UPDATE newsTerm SET documents = ? WHERE term = ?", [documentsByTerm[term], term])
        }
        if documentsChanged {
            try db.run("INSERT INTO newsCorpus (id, documents) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET documents = excluded.documents", [documents])
        }
        let changed = changedGroups.sorted()
        for groupId in changed {
            guard let slot = groups.slot(of: groupId) else { continue }
            let group = groups.slots[slot]
            if group.isNew {
                try db.run("""
                    INSERT INTO newsGroup (groupId, title, eventType, createdAt, lastAt, articleCount, outletCount, primaryTicker, impactLevel, centroid)
                    VALUES (?, ?, ?, ?, ?, ?, 0, NULL, 'Very Low', ?)
                    """, [groupId, group.title, group.eventType, group.createdAt, group.lastAt, group.articleCount, try StoriesProjection.json(group.centroid)])
            } else if group.centroidChanged {
                try db.run("UPDATE newsGroup SET articleCount = ?, lastAt = ?, createdAt = ?, centroid = ? WHERE groupId = ?", [
                    group.articleCount, group.lastAt, group.createdAt, try StoriesProjection.json(group.centroid), groupId,
                ])
            } else {
                try db.run("UPDATE newsGroup SET articleCount = ?, lastAt = ?, createdAt = ? WHERE groupId = ?", [group.articleCount, group.lastAt, group.createdAt, groupId])
            }
        }
        return changed
    }

    private mutating func settle() {
        for groupId in changedGroups { if let slot = groups.slot(of: groupId) { groups.settle(slot) } }
        changedGroups = []
        changedTerms = []
        newTerms = []
        documentsChanged = false
    }

    private static let groupColumns = "SELECT groupId, title, eventType, createdAt, lastAt, articleCount, centroid FROM newsGroup"

    private mutating func add(_ row: Row) throws {
        let centroid = try JSONDecoder().decode(TermVector.self, from: Data((row[6] as String).utf8))
        let (id, title, eventType): (Int64, String, String) = (row[0], row[1], row[2])
        let (createdAt, lastAt, articleCount): (Int64, Int64, Int) = (row[3], row[4], row[5])
        groups.add(.init(
            id: id, title: title, eventType: eventType, createdAt: createdAt, lastAt: lastAt, articleCount: articleCount, centroid: centroid, isNew: false
        ))
    }

    private static func band(_ band: Int, of simhash: UInt64) -> UInt16 {
        UInt16(truncatingIfNeeded: simhash >> UInt64(16 * band))
    }
}
