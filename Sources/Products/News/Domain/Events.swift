import EventSourcing

/// An article came in: from a feed, an import or the demo. Its URL is canonical (`CanonicalURL`),
/// and an article is ingested once per URL.
public struct ArticleIngested: EventPayload {
    public static let typeName = "article-ingested"
    public static let schemaVersion: UInt16 = 1

    public var url: String
    public var title: String
    public var source: String
    /// Epoch seconds, as the source dated it.
    public var publishedAt: Int64
    public var description: String
    public var body: String?
    /// Where it came from: a feed's URL, `import:<file name>`, `demo`.
    public var feed: String

    public init(url: String, title: String, source: String, publishedAt: Int64, description: String, body: String?, feed: String) {
        self.url = url
        self.title = title
        self.source = source
        self.publishedAt = publishedAt
        self.description = description
        self.body = body
        self.feed = feed
    }
}

/// A holding as the user described it.
public struct Holding: Codable, Sendable, Hashable {
    public var ticker: String
    public var label: String?
    public var notes: String?

    public init(ticker: String, label: String? = nil, notes: String? = nil) {
        self.ticker = ticker
        self.label = label
        self.notes = notes
    }
}

public enum FocusProfile: String, Codable, Sendable, CaseIterable {
    case focused, balanced, broad
}

/// A user's preferences as they were set, whole, before users became readers (`PreferencesSet`):
/// in clear, under the `X-User-ID`. Read from older logs, never written.
public struct PreferencesUpdated: EventPayload {
    public static let typeName = "preferences-updated"
    public static let schemaVersion: UInt16 = 1

    public var userId: String
    public var focusProfile: FocusProfile
    public var holdings: [Holding]

    public init(userId: String, focusProfile: FocusProfile, holdings: [Holding]) {
        self.userId = userId
        self.focusProfile = focusProfile
        self.holdings = holdings
    }
}
