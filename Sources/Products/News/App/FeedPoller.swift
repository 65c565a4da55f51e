import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NewsCommands
import NewsDomain
import NIOCore
import ServiceLifecycle

/// Fetches the configured RSS/Atom feeds every `interval`, and ingests what is new: each article
/// once per canonical URL, so a feed fetched again records nothing it held before. A feed that
/// fails (unreachable, an error status, not a feed) is logged and tried again next round; the
/// others go on.
public struct FeedPoller: Service {
    public let feeds: [URL]
    public let interval: Duration
    let commands: NewsCommandService
    let client: HTTPClient
    let logger: Logger
    private let ingested = Counter(label: "news_feed_articles_ingested_total")
    private let failures = Counter(label: "news_feed_fetch_failures_total")

    public init(feeds: [URL], interval: Duration, commands: NewsCommandService, client: HTTPClient = .shared, logger: Logger) {
        self.feeds = feeds
        self.interval = interval
        self.commands = commands
        self.client = client
        self.logger = logger
    }

    /// Until a graceful shutdown, which ends the wait for the next round (it held a stopping server
    /// up to `interval`).
    public func run() async throws {
        guard !feeds.isEmpty else { return }
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                _ = await pollOnce()
                try await Task.sleep(for: interval)
            }
        }
    }

    /// One round over every feed; returns how many articles it recorded.
    @discardableResult
    public func pollOnce() async -> Int {
        var recorded = 0
        for feed in feeds where !Task.isCancelled {
            do {
                var request = HTTPClientRequest(url: feed.absoluteString)
                request.headers.add(name: "Accept", value: "application/rss+xml, application/atom+xml, application/xml, text/xml")
                let response = try await client.execute(request, timeout: .seconds(20))
                let body = try await response.body.collect(upTo: 5 << 20)
                guard response.status == .ok else { throw FeedDocument.Unreadable(description: "answered HTTP \(response.status.code)") }
                let articles = try FeedDocument.articles(Data(body.readableBytesView), feedURL: feed.absoluteString).compactMap { try? NewsRules.article($0) }
                let count = try await commands.ingest(articles).filter { $0 != .duplicate }.count
                recorded += count
                ingested.increment(by: count)
                logger.info("fetched a feed", metadata: ["feed": "\(feed)", "items": "\(articles.count)", "new": "\(count)"])
            } catch where Task.isCancelled {
                break
            } catch {
                failures.increment()
                logger.warning("could not fetch a feed; trying again next round", metadata: ["feed": "\(feed)", "error": "\(error)"])
            }
        }
        return recorded
    }
}
