import NewsDomain
import ReadModels

/// The news product as the engine hosts it.
public enum NewsProduct: EventSourcedProduct {
    public typealias Catalog = NewsCatalog
    public static let name = "news"
    public static var projections: [any Projection<NewsEvent>] { NewsReadModels.all }
    /// News has no accounts; this names the stream an engine erasure would use, which nothing records.
    public static func userStream(_ userId: Int64) -> String { "user-\(userId)" }
}

public typealias NewsRunner = ProjectionRunner<NewsCatalog>

public enum NewsReadModels {
    public static let all: [any Projection<NewsEvent>] = [StoriesProjection(), PreferencesProjection()]
}
