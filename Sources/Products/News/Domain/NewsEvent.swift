import EventSourcing

/// Every fact the news product records. There are no accounts (the contract names its users by an
/// `X-User-ID` it does not check), so no event is a user's action in the engine's sense.
public enum NewsEvent: Sendable, Equatable {
    case articleIngested(ArticleIngested)
    case preferencesUpdated(PreferencesUpdated)
    /// The engine's erasure event, registered as every product's is; nothing here records it.
    case userErased(UserErased)

    public var payload: any EventPayload {
        switch self {
        case .articleIngested(let e): e
        case .preferencesUpdated(let e): e
        case .userErased(let e): e
        }
    }
}

/// The news product's catalog: the engine's `PayloadCatalog`.
public enum NewsCatalog: PayloadCatalog {
    public typealias Event = NewsEvent

    public static let payloadTypes: PayloadTypes<NewsEvent> = [
        PayloadType(ArticleIngested.self) { .articleIngested($0) },
        PayloadType(PreferencesUpdated.self) { .preferencesUpdated($0) },
        PayloadType(UserErased.self) { .userErased($0) },
    ]

    public static func payload(of event: NewsEvent) -> any EventPayload { event.payload }
    public static func actorUserId(of event: NewsEvent) -> Int64? { nil }
    public static func subjectUserIds(of event: NewsEvent) -> [Int64] { [] }
    public static let eventIdNamespace = "news"
    public static func userErased(_ erasure: UserErased) -> NewsEvent { .userErased(erasure) }
}

/// Stream ids.
public enum NewsStreams {
    /// One stream per article, named by a hash of its canonical URL: ingesting it again finds it there.
    public static func article(_ canonicalURL: String) -> String { "article-" + NewsHash.hex(canonicalURL).prefix(32) }
    /// A user's preferences, every change in order.
    public static func preferences(_ userId: String) -> String { "preferences-\(userId)" }
}
