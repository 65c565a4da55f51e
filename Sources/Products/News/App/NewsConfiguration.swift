import Foundation
import HTTPServing
import ProductHosting

/// Everything the news server needs to start. The `news` executable builds it from flags and the
/// `NEWS_*` environment.
public struct NewsConfiguration: PastStateConfiguration {
    public var serving: ServingSettings
    /// The contract's 100.
    public var requestsPerMinute = 100
    /// RSS/Atom feeds fetched every `feedInterval` (`NEWS_FEEDS`, comma-separated http(s) URLs).
    public var feeds: [URL] = []
    public var feedInterval: Duration = .seconds(900)

    public init(dataDirectory: URL) {
        serving = ServingSettings(dataDirectory: dataDirectory, port: 5001)
    }

    public mutating func apply(_ settings: EnvironmentSettings) throws {
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
    }
}
