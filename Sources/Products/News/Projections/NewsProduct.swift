import NewsDomain
import ReadModels

/// The news product as the engine hosts it.
public enum NewsProduct: EventSourcedProduct {
    public typealias Catalog = NewsCatalog
    public static let name = "news"
    public static var projections: [any Projection<NewsEvent>] { NewsReadModels.all }
    /// A reader's stream (`Readers`): their registration, preferences and erasure.
    public static func userStream(_ userId: Int64) -> String { NewsStreams.user(userId) }
    public static let metricHelp = [
        "news_feed_articles_ingested_total": "Articles the feed poller ingested.",
        "news_feed_fetch_failures_total": "Feed fetches that failed.",
    ]
}

public typealias NewsRunner = ProjectionRunner<NewsCatalog>

public enum NewsReadModels {
    public static let all: [any Projection<NewsEvent>] = [StoriesProjection(), PreferencesProjection()]
}
