import Foundation
import Hummingbird
import Logging
import NewsApp
import NewsCommands
import NewsDomain
import NIOCore
import TestSupport
import Testing

/// RSS and Atom read into articles, and the poller fetching a feed served on 127.0.0.1.
@Suite struct FeedPollingTests {
    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
        <channel><title>Test Wire (synthetic)</title><link>https://wire.example/</link>
        <item><title>Apple beats estimates &amp; raises outlook</title><link>https://wire.example/apple?utm_source=rss</link>
          <description><![CDATA[<p>Apple reported <b>quarterly revenue</b> up 8%.</p>]]></description>
          <content:encoded><![CDATA[<p>The iPhone led.</p>]]></content:encoded>
          <pubDate>Fri, 02 Jan 2026 10:00:00 GMT</pubDate></item>
        <item><title>No date, left out</title><link>https://wire.example/undated</link></item>
        <item><title>Fed holds rates</title><link>https://wire.example/fed</link><description>The Federal Reserve held interest rates.</description>
          <pubDate>Fri, 02 Jan 2026 12:30:00 +0000</pubDate></item>
        </channel></rss>
        """

    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Desk (synthetic)</title>
        <entry><title>Nvidia unveils a new GPU</title><link rel="alternate" href="https://atom.example/nvidia"/>
          <summary>Nvidia launches its next chip.</summary><published>2026-01-02T09:15:00Z</published></entry>
        </feed>
        """

    @Test func rssAndAtomReadIntoArticles() throws {
        let rss = try FeedDocument.articles(Data(Self.rss.utf8), feedURL: "https://wire.example/rss")
        #expect(rss.map(\.title) == ["Apple beats estimates & raises outlook", "Fed holds rates"])
        #expect(rss.first?.description == "Apple reported quarterly revenue up 8%.")
        #expect(rss.first?.body == "The iPhone led.")
        #expect(rss.first?.source == "Test Wire (synthetic)")
        #expect(rss.first?.publishedAt == 1_767_348_000)
        #expect(rss.last?.publishedAt == 1_767_357_000)
        let atom = try FeedDocument.articles(Data(Self.atom.utf8), feedURL: "https://atom.example/feed")
        #expect(atom == [ArticleIngested(
            url: "https://atom.example/nvidia", title: "Nvidia unveils a new GPU", source: "Atom Desk (synthetic)", publishedAt: 1_767_345_300,
            description: "Nvidia launches its next chip.", body: nil, feed: "https://atom.example/feed"
        )])
        #expect(throws: FeedDocument.Unreadable.self) { try FeedDocument.articles(Data("<html><body>no</body></html>".utf8), feedURL: "x") }
        #expect(throws: FeedDocument.Unreadable.self) { try FeedDocument.articles(Data("not xml <".utf8), feedURL: "x") }
    }

    /// The probe's feed item dated 2099 became every feed's only item (they rank the week before the
    /// newest article held): it counts as published when it was fetched.
    @Test func anItemDatedAfterItsFetchCountsAsPublishedWhenFetched() throws {
        let fetched = Date(timeIntervalSince1970: 1_767_350_000)
        let rss = try FeedDocument.articles(Data(Self.rss.replacingOccurrences(of: "Fri, 02 Jan 2026 12:30:00 +0000", with: "Thu, 01 Jan 2099 00:00:00 GMT").utf8),
                                            feedURL: "https://wire.example/rss", fetchedAt: fetched)
        #expect(rss.map(\.publishedAt) == [1_767_348_000, 1_767_350_000])
    }

    @Test func thePollerIngestsWhatIsNewInEachFeedOnce() async throws {
        let storage = try await NewsStorage(demo: false)
        let router = Router()
        router.get("/rss") { _, _ in Response(status: .ok, headers: [.contentType: "application/rss+xml"], body: .init(byteBuffer: ByteBuffer(string: Self.rss))) }
        router.get("/atom") { _, _ in Response(status: .ok, headers: [.contentType: "application/atom+xml"], body: .init(byteBuffer: ByteBuffer(string: Self.atom))) }
        router.get("/broken") { _, _ in Response(status: .internalServerError) }
        var quiet = Logger(label: "feed-test")
        quiet.logLevel = .critical
        let logger = quiet
        try await serve(router, logger: logger) { port in
            let feeds = ["rss", "broken", "atom"].compactMap { URL(string: "http://127.0.0.1:\(port)/\($0)") }
            let poller = FeedPoller(feeds: feeds, interval: .seconds(3600), commands: storage.commands, logger: logger)
            #expect(await poller.pollOnce() == 3, "two RSS items with dates and one Atom entry; the broken feed skipped")
            #expect(await poller.pollOnce() == 0, "a feed fetched again records nothing it held")
        }
        try storage.runner.catchUp()
        let urls = Set(try storage.queries.recent(within: 100 * 365 * 86_400).articles.map(\.url))
        #expect(urls == ["https://wire.example/apple", "https://wire.example/fed", "https://atom.example/nvidia"])
    }
}
