import Foundation
import HTTPServing
import Prometheus
import ProductHosting

/// Everything the news server needs to start. The `news` executable builds it from flags and the
/// `NEWS_*` environment.
public struct NewsConfiguration: ServerConfiguration {
    public var dataDirectory: URL
    public var host = "127.0.0.1"
    public var port = 5001
    /// Demo mode ingests the synthetic demo articles and keeps generated secrets in the data directory.
    public var demoMode = false
    public var adminToken: String?
    public var masterKey: String?
    /// The contract's 100.
    public var requestsPerMinute = 100
    /// RSS/Atom feeds fetched every `feedInterval` (`NEWS_FEEDS`, comma-separated http(s) URLs).
    public var feeds: [URL] = []
    public var feedInterval: Duration = .seconds(900)
    public var readYourWritesTimeout: Duration = .seconds(5)
    public var initialLogMapSize = 64 << 20
    public var metricsRegistry: PrometheusCollectorRegistry?
    public var connections = ConnectionLimits()
    public var logURL: String?

    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    public static let environmentNames: Set<String> = [
        "NEWS_ADMIN_TOKEN", "NEWS_ADMIN_TOKEN_FILE", "NEWS_RATE_LIMIT_PER_MINUTE", "NEWS_FEEDS", "NEWS_FEED_INTERVAL_SECONDS",
        "NEWS_READ_YOUR_WRITES_TIMEOUT_MS",
    ]

    public mutating func apply(_ settings: EnvironmentSettings) throws {
        adminToken = try settings.secret("NEWS_ADMIN_TOKEN")
        requestsPerMinute = try settings.integer("NEWS_RATE_LIMIT_PER_MINUTE", in: 1...1_000_000) ?? requestsPerMinute
        if let list = settings.text("NEWS_FEEDS") {
            feeds = try list.split(separator: ",").map { raw in
                let text = raw.trimmingCharacters(in: .whitespaces)
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                    throw InvalidSetting(name: "NEWS_FEEDS", value: text, expected: "comma-separated http(s) URLs of RSS or Atom feeds")
                }
                return url
            }
        }
        if let seconds = try settings.integer("NEWS_FEED_INTERVAL_SECONDS", in: 60...86_400) { feedInterval = .seconds(seconds) }
        if let timeout = try settings.integer("NEWS_READ_YOUR_WRITES_TIMEOUT_MS", in: 1...600_000) {
            readYourWritesTimeout = .milliseconds(timeout)
        }
    }
}
