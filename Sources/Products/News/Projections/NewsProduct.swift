import NewsDomain
import ReadModels

/// The news product as the engine hosts it.
public enum NewsProduct: EventSourcedProduct {
    public typealias Catalog = NewsCatalog
    public static let name = "news"
    public static var projections: [any Projection<NewsEvent>] { NewsReadModels.all }
    /// A reader's stream (`Readers`): their registration, preferences and erasure.
    public static func userStream(_ userId: Int64) -> String { NewsStreams.user(userId) }
}

public typealias NewsRunner = ProjectionRunner<NewsCatalog>

public enum NewsReadModels {
    public static let all: [any Projection<NewsEvent>] = [StoriesProjection(), PreferencesProjection()]
}
