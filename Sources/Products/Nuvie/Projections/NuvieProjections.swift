import ReadModels
import EventSourcing
import NuvieDomain

/// Every read model the backend serves, in the order they are applied to each event.
public enum NuvieReadModels {
    public static let all: [any Projection<NuvieEvent>] = [
        CatalogProjection(),
        MovieStatsProjection(),
        UserRatingsProjection(),
        ReviewsProjection(),
        UsersProjection(),
        WatchProjection(),
        SocialProjection(),
        ActivityProjection(),
        TasteProjection(),
    ]
}

extension Recorded {
    /// Epoch seconds: the API serves whole-second UTC timestamps.
    var epochSeconds: Int64 { Int64(recordedAt.timeIntervalSince1970.rounded(.down)) }
}

