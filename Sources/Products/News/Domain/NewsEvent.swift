import EventSourcing

/// Every fact the news product records: articles, and readers with their preferences.
public enum NewsEvent: Sendable, Equatable {
    case articleIngested(ArticleIngested)
    /// Preferences recorded in clear before readers (read from older logs).
    case preferencesUpdated(PreferencesUpdated)
    case readerClaimed(ReaderClaimed)
    case readerRegistered(ReaderRegistered)
    case preferencesSet(PreferencesSet)
    /// The engine's erasure event, registered as every product's is.
    case userErased(UserErased)

    public var payload: any EventPayload {
        switch self {
        case .articleIngested(let e): e
        case .preferencesUpdated(let e): e
        case .readerClaimed(let e): e
        case .readerRegistered(let e): e
        case .preferencesSet(let e): e
        case .userErased(let e): e
        }
    }

    /// The reader whose action this is, whose data key seals the event's personal fields. An
    /// erasure an operator made is nobody's action: its reader is its subject (`subjectUserIds`).
    public var actorUserId: Int64? {
        switch self {
        case .readerClaimed(let e): e.userId
        case .readerRegistered(let e): e.userId
        case .preferencesSet(let e): e.userId
        case .userErased(let e): e.initiator == .user ? e.userId : nil
        case .articleIngested, .preferencesUpdated: nil
        }
    }

    public var subjectUserIds: [Int64] {
        switch self {
        case .userErased(let e) where e.initiator != .user: [e.userId]
        case .articleIngested, .preferencesUpdated, .readerClaimed, .readerRegistered, .preferencesSet, .userErased: []
        }
    }
}

/// The news product's catalog: the engine's `PayloadCatalog`.
public enum NewsCatalog: PayloadCatalog {
    public typealias Event = NewsEvent

    public static let payloadTypes: PayloadTypes<NewsEvent> = [
        PayloadType(ArticleIngested.self) { .articleIngested($0) },
        PayloadType(PreferencesUpdated.self) { .preferencesUpdated($0) },
        PayloadType(ReaderClaimed.self) { .readerClaimed($0) },
        PayloadType(ReaderRegistered.self) { .readerRegistered($0) },
        PayloadType(PreferencesSet.self) { .preferencesSet($0) },
        PayloadType(UserErased.self) { .userErased($0) },
    ]

    public static func payload(of event: NewsEvent) -> any EventPayload { event.payload }
    public static func actorUserId(of event: NewsEvent) -> Int64? { event.actorUserId }
    public static func subjectUserIds(of event: NewsEvent) -> [Int64] { event.subjectUserIds }
    public static let eventIdNamespace = "news"
    public static func userErased(_ erasure: UserErased) -> NewsEvent { .userErased(erasure) }
    public static func erasure(in event: NewsEvent) -> UserErased? { if case .userErased(let erased) = event { erased } else { nil } }
}

/// Stream ids.
public enum NewsStreams {
    /// One stream per article, named by a hash of its canonical URL: ingesting it again finds it there.
    public static func article(_ canonicalURL: String) -> String { "article-" + NewsHash.hex(canonicalURL).prefix(32) }
    /// Preferences recorded in clear under an `X-User-ID`, before readers: read, never written.
    public static func preferences(_ userId: String) -> String { "preferences-\(userId)" }
    public static let userPrefix = "user-"
    /// A reader's stream: their registration, then every change of their preferences in order.
    public static func user(_ userId: Int64) -> String { userPrefix + "\(userId)" }
}
