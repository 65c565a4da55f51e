import EventSourcing
import Foundation
import GRDB
import Logging
import NewsCommands
import NewsDomain
import NewsProjections
import ReadModels
import SeededRandom
import TestSupport
import Testing

/// A fold's batch of articles is placed at once, against groups and originals read once for the
/// run (`StoryDesk`); an article folded by itself is a run of one. Both leave the same rows.
@Suite struct StoryRunTests {
    @Test func articlesPlacedInRunsLeaveTheRowsPlacedOneAtATimeLeave() async throws {
        let stories = try #require(NewsReadModels.all.first { $0.name == "news-stories" })
        // Off the cooperative threads: seconds of folding, on both cores in a long run (`TwoThreads`).
        let folded = try await onAThreadOfItsOwn { try Self.foldedInRunsAndOneAtATime(stories) }
        #expect(folded.inRuns == folded.oneAtATime)
        #expect(folded.shuffledInOneRun == folded.shuffledOneAtATime)
        #expect(folded.articles > 700 && folded.copies > 20, "copies among \(folded.articles) articles: \(folded.copies)")
    }

    /// Dense (50 events a day) so that runs span the copy and cluster windows, with copies whose group
    /// was not active beside the run; then a back-fill out of date order over a month, where a run's
    /// desks each take consecutive articles within a week.
    private static func foldedInRunsAndOneAtATime(_ stories: any Projection<NewsEvent>) throws -> (
        oneAtATime: [String: String], inRuns: [String: String], shuffledOneAtATime: [String: String], shuffledInOneRun: [String: String],
        articles: Int, copies: Int
    ) {
        let articles = try SyntheticNews.generate(seed: 11, stories: 250, days: 5).map { try NewsRules.article($0.ingested) }
        let events = articles.enumerated().map { index, article in
            Recorded<NewsEvent>(
                position: UInt64(index + 1), eventId: UUID(), streamId: "article", streamVersion: UInt64(index),
                recordedAt: Date(timeIntervalSince1970: 0), event: .articleIngested(article)
            )
        }
        let oneAtATime = try ReadDatabase.inMemory(projections: [stories])
        try oneAtATime.pool.write { db in for event in events { try stories.apply(event, db) } }
        let inRuns = try ReadDatabase.inMemory(projections: [stories])
        try inRuns.pool.write { db in
            for start in stride(from: 0, to: events.count, by: 157) { try stories.apply(events[start..<min(start + 157, events.count)], db) }
        }

        var random = SplitMix64(seed: 3)
        let month = try SyntheticNews.generate(seed: 5, stories: 120, days: 30).map { try NewsRules.article($0.ingested) }
        let shuffled = month.shuffled(using: &random).enumerated().map { index, article in
            Recorded<NewsEvent>(
                position: UInt64(index + 1), eventId: UUID(), streamId: "article", streamVersion: UInt64(index),
                recordedAt: Date(timeIntervalSince1970: 0), event: .articleIngested(article)
            )
        }
        let shuffledOneAtATime = try ReadDatabase.inMemory(projections: [stories])
        try shuffledOneAtATime.pool.write { db in for event in shuffled { try stories.apply(event, db) } }
        let shuffledInOneRun = try ReadDatabase.inMemory(projections: [stories])
        try shuffledInOneRun.pool.write { db in try stories.apply(shuffled[...], db) }
        let copies = try oneAtATime.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM newsArticle WHERE duplicateOf IS NOT NULL") }
        return (
            try oneAtATime.tableDumps(), try inRuns.tableDumps(), try shuffledOneAtATime.tableDumps(), try shuffledInOneRun.tableDumps(),
            events.count, copies ?? 0
        )
    }

    /// A serving runner folds a feed's articles a batch of one at a time, each placed on the desk the
    /// batch before it kept (`FoldMemory`), widened by the margins it lacks. Through a back-fill that
    /// widens desks both ways and outgrows them, it leaves the rows one fold of the whole log leaves.
    @Test func articlesFoldedOneBatchAtATimeOnKeptDesksLeaveTheRowsOfOneFold() async throws {
        let storage = try await NewsStorage(demo: false)
        let days = try SyntheticNews.generate(seed: 11, stories: 90, days: 3).map { try NewsRules.article($0.ingested) }
        // A month back-filled in three passes: a third forward; a third forward again, whose desks,
        // read afresh at each week's start, widen over later articles already placed; the last third
        // backward, whose desks widen over earlier ones.
        let month = try SyntheticNews.generate(seed: 5, stories: 70, days: 30).map { try NewsRules.article($0.ingested) }
            .sorted { $0.publishedAt < $1.publishedAt }
        let third = { (pass: Int) in month.indices.filter { $0 % 3 == pass }.map { month[$0] } }
        let backFill = third(0) + third(1) + third(2).reversed()
        _ = try await storage.commands.ingest(days + backFill)

        let oneAtATime = try ReadDatabase(path: storage.temporary.url.appendingPathComponent("one/read.sqlite").path, projections: NewsReadModels.all)
        defer { try? oneAtATime.close() }
        let runner = try NewsRunner(
            log: storage.stores.log, personalData: storage.stores.personalData, database: oneAtATime, projections: NewsReadModels.all, batchSize: 1,
            logger: Logger(label: "test")
        )
        #expect(try runner.catchUp() == days.count + backFill.count)
        try storage.runner.catchUp()
        #expect(try oneAtATime.tableDumps() == storage.stores.readDatabase.tableDumps())
    }

    /// The copy window (three days) is wider than the cluster window (two): a copy can join a group
    /// no longer active beside it, which a run has not read with the active ones.
    @Test func aCopyJoinsItsOriginalsGroupAfterThatGroupWentQuiet() throws {
        let stories = try #require(NewsReadModels.all.first { $0.name == "news-stories" })
        let original = try NewsRules.article(ArticleIngested(
            url: "https://a.example/1", title: "Acme Widgets agrees to acquire Zenith unit for $4 billion", source: "Wire A", publishedAt: 1_764_720_000,
            description: "Acme Widgets said it will acquire a Zenith division in a $4 billion deal.", body: "Regulators must still review the deal.", feed: "test"
        ))
        var copy = original
        (copy.url, copy.source, copy.publishedAt) = ("https://b.example/1", "Wire B", original.publishedAt + 60 * 3600)
        let events = [original, copy].enumerated().map { index, article in
            Recorded<NewsEvent>(
                position: UInt64(index + 1), eventId: UUID(), streamId: "article", streamVersion: UInt64(index),
                recordedAt: Date(timeIntervalSince1970: 0), event: .articleIngested(article)
            )
        }
        let database = try ReadDatabase.inMemory(projections: [stories])
        try database.pool.write { db in for event in events { try stories.apply(event, db) } }
        let row = try database.pool.read { db in try Row.fetchOne(db, sql: "SELECT articleCount, lastAt FROM newsGroup") }
        #expect(row?[0] as Int? == 2 && row?[1] as Int64? == copy.publishedAt)
        let duplicateOf = try database.pool.read { db in try Int64.fetchOne(db, sql: "SELECT duplicateOf FROM newsArticle WHERE position = 2") }
        #expect(duplicateOf == 1)
    }
}
