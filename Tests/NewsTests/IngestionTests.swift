import EventSourcing
import Foundation
import Logging
import NewsCommands
import NewsDomain
import NewsProjections
import ReadModels
import TestSupport
import Testing

/// Ingestion is events, once per canonical URL; a replay rebuilds every read model from them alone.
@Suite struct IngestionTests {
    @Test func anArticleIsIngestedOncePerCanonicalURL() async throws {
        let storage = try await NewsStorage(demo: false)
        let article = try NewsRules.article(ArticleIngested(
            url: "HTTPS://Wire.Example/story/?utm_source=x#top", title: " Apple beats estimates ", source: "Wire (synthetic)",
            publishedAt: 1_767_225_600, description: "Revenue rose.", body: nil, feed: "test"
        ))
        #expect(article.url == "https://wire.example/story")
        #expect(article.title == "Apple beats estimates")
        #expect(try await storage.commands.ingest([article]).count == 1)
        let head = storage.stores.log.headPosition
        var again = article
        again.title = "Apple beats estimates (updated)"
        #expect(try await storage.commands.ingest([article, again]) == [.duplicate, .duplicate])
        #expect(storage.stores.log.headPosition == head)
        #expect(try await NewsDemoSeed.run(into: storage.commands) > 0)
        #expect(try await NewsDemoSeed.run(into: storage.commands) == 0, "seeding again records nothing")
    }

    /// A feed page pinned at a log position ranks each story by the outlets it had then.
    @Test func recentArticlesThroughAPositionCountTheOutletsThen() async throws {
        let storage = try await NewsStorage(demo: false)
        func report(_ source: String, _ url: String) throws -> ArticleIngested {
            try NewsRules.article(ArticleIngested(
                url: url, title: "Apple beats estimates as iPhone revenue rises", source: source, publishedAt: 1_767_225_600,
                description: "Apple reported quarterly revenue above estimates.", body: nil, feed: "test"
            ))
        }
        _ = try await storage.commands.ingest([try report("Wire (synthetic)", "https://wire.example/apple")])
        try storage.runner.catchUp()
        let first = try storage.queries.recent(within: 86_400)
        _ = try await storage.commands.ingest([try report("Desk (synthetic)", "https://desk.example/apple")])
        try storage.runner.catchUp()
        #expect(try storage.queries.recent(within: 86_400).articles.map(\.outlets) == [2])
        let pinned = try storage.queries.recent(within: 86_400, through: first.through)
        #expect(first.articles.map(\.outlets) == [1] && pinned.articles.map(\.outlets) == [1])
    }

    @Test func aJSONLinesImportTakesGoodLinesAndNamesTheRest() throws {
        let lines = """
            {"url":"https://a.example/1","title":"One","source":"A","published_at":"2026-01-02T10:00:00Z","description":"d"}
            {"url":"https://a.example/2","title":"Two","source":"A","published_at":1767348000,"body":"b"}
            {"url":"ftp://a.example/3","title":"Three","source":"A","published_at":1767348000}
            not json
            {"url":"https://a.example/4","title":"","source":"A","published_at":1767348000}
            """
        let parsed = ArticleImport(jsonLines: Data(lines.utf8), feed: "import:test.jsonl")
        #expect(parsed.articles.map(\.url) == ["https://a.example/1", "https://a.example/2"])
        #expect(parsed.articles.first?.publishedAt == 1_767_348_000)
        #expect(parsed.rejected.map(\.line) == [3, 4, 5])
    }

    /// A recorded import (`replay-fixtures/news-articles.jsonl`: copies, one event in several outlets'
    /// words, unrelated stories) folds into the recorded groups; a fold from position 0 leaves the
    /// same rows. `NEWS_RECORD_FIXTURES=1` writes the expected rows instead, for review.
    @Test func replayingTheRecordedArticlesGivesTheRecordedGroups() async throws {
        let storage = try await NewsStorage(demo: false)
        let parsed = ArticleImport(jsonLines: try Data(contentsOf: replayFixtures.appendingPathComponent("news-articles.jsonl")), feed: "import:fixture")
        #expect(parsed.rejected.isEmpty)
        _ = try await storage.commands.ingest(parsed.articles)
        try storage.runner.catchUp()
        let rows = try storage.stores.readDatabase.canonicalDump()
        let path = storage.temporary.url.appendingPathComponent("refold/read.sqlite").path
        let fresh = try ReadDatabase(path: path, projections: NewsReadModels.all)
        defer { try? fresh.close() }
        try NewsRunner(log: storage.stores.log, personalData: storage.stores.personalData, database: fresh, projections: NewsReadModels.all, logger: Logger(label: "test")).catchUp()
        #expect(try fresh.canonicalDump() == rows)
        let expected = replayFixtures.appendingPathComponent("news-articles.expected.json")
        if ProcessInfo.processInfo.environment["NEWS_RECORD_FIXTURES"] == "1" {
            try Data((rows + "\n").utf8).write(to: expected)
            return
        }
        #expect(rows == (try String(contentsOf: expected, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func eachProjectionVersionKeepsItsRecordedSchema() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schemas")
        #expect(try projectionsWithChangedSchemas(NewsReadModels.all, recordedIn: directory, recordFlag: "NEWS_RECORD_SCHEMAS") == [])
    }
}
