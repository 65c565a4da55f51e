import EventLog
import EventSourcing
import Foundation
import NewsDomain

/// The news product's events in the log.
public typealias NewsStore = EventStore<NewsCatalog>

/// Ingests articles (once per canonical URL) and records preferences.
public struct NewsCommandService: Sendable {
    public let store: NewsStore

    public init(store: NewsStore) {
        self.store = store
    }

    public enum Ingested: Equatable, Sendable {
        case recorded(position: UInt64)
        /// Its canonical URL was ingested before: nothing recorded.
        case duplicate
    }

    /// Each article, in order, once per canonical URL: those new here are appended together (one
    /// durable commit), each on its own stream expected not to exist, so a URL ingested meanwhile by
    /// another writer is caught and that one counted a duplicate instead.
    public func ingest(_ articles: [ArticleIngested]) async throws -> [Ingested] {
        var outcomes: [Ingested?] = []
        var fresh: [(index: Int, stream: String, article: ArticleIngested)] = []
        var streams: Set<String> = []
        for article in articles {
            let stream = NewsStreams.article(article.url)
            if try streams.contains(stream) || store.streamExists(stream) {
                outcomes.append(.duplicate)
            } else {
                streams.insert(stream)
                fresh.append((outcomes.count, stream, article))
                outcomes.append(nil)
            }
        }
        guard !fresh.isEmpty else { return outcomes.map { $0 ?? .duplicate } }
        do {
            var appends: [StreamAppend] = []
            for item in fresh {
                appends.append(StreamAppend(streamId: item.stream, expectedVersion: .noStream, events: [
                    try await store.newEvent(.articleIngested(item.article), id: NewsCatalog.derivedEventId(from: "article:\(item.article.url)")),
                ]))
            }
            let result = try await store.log.append(appends)
            for (offset, item) in fresh.enumerated() { outcomes[item.index] = .recorded(position: result.positions[offset]) }
        } catch EventLogError.wrongExpectedVersion, EventLogError.eventIdReused, EventLogError.partialDuplicate {
            for item in fresh { outcomes[item.index] = try await ingestOne(item.article, stream: item.stream) }
        }
        return outcomes.map { $0 ?? .duplicate }
    }

    private func ingestOne(_ article: ArticleIngested, stream: String) async throws -> Ingested {
        do {
            let result = try await store.log.append(to: stream, expectedVersion: .noStream, events: [
                try await store.newEvent(.articleIngested(article), id: NewsCatalog.derivedEventId(from: "article:\(article.url)")),
            ])
            return .recorded(position: result.lastPosition)
        } catch EventLogError.wrongExpectedVersion, EventLogError.eventIdReused {
            return .duplicate
        }
    }

    /// Records the preferences whole, what is given (nil: left as it is) set over the stream as it
    /// stands when the append is decided, so that two changes at once each keep the other's; nothing
    /// when they are what they already are. The preferences as this write left them, and where.
    public func setPreferences(
        of userId: String, focus: FocusProfile?, holdings raw: [Holding]?
    ) async throws -> (preferences: PreferencesState, result: CommandResult) {
        let holdings = try raw.map { try NewsRules.holdings($0) }
        var decided = PreferencesState()
        let result = try await store.decideAndAppend(NewsStreams.preferences(userId), as: PreferencesState.self, eventId: .timeOrdered()) { state in
            let wanted = (focus ?? state.focusProfile, holdings ?? state.holdings)
            let events: [NewsEvent] = state.focusProfile == wanted.0 && state.holdings == wanted.1
                ? [] : [.preferencesUpdated(PreferencesUpdated(userId: userId, focusProfile: wanted.0, holdings: wanted.1))]
            decided = events.reduce(into: state) { $0.evolve($1) }
            return events
        }
        return (decided, result)
    }
}
