import EventLog
import EventSourcing
import Foundation
import NewsDomain

/// The news product's events in the log.
public typealias NewsStore = EventStore<NewsCatalog>

/// Ingests articles (once per canonical URL), registers readers and records their preferences.
public struct NewsCommandService: Sendable {
    public let store: NewsStore
    private let registration: UserRegistration<NewsCatalog>

    public init(store: NewsStore) {
        self.store = store
        registration = UserRegistration(store: store, userStreamPrefix: NewsStreams.userPrefix) { event in
            if case .readerClaimed(let claim) = event { claim.userId } else { nil }
        }
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

    /// The reader `xUserId` names, if it names one (an erased reader is no one's).
    public func existingReader(_ xUserId: String) throws -> Int64? {
        try registration.existingUser(Readers.identity(xUserId))?.userId
    }

    /// Records the preferences whole on the reader `xUserId` names (registered the first time, and
    /// again after an erasure), what is given (nil: left as it is) set over their stream as it stands
    /// when the append is decided, so that two changes at once each keep the other's; nothing when
    /// they are what they already are. The id's first reader starts from what it had set before readers
    /// (kept in clear in the log, as it was written). A reader erased between their registration and
    /// the decision (which takes turns with the erasure) is followed by the id's next reader, as if
    /// the change had come after the erasure. The preferences as this write left them, and where.
    public func setPreferences(
        of xUserId: String, focus: FocusProfile?, holdings raw: [Holding]?
    ) async throws -> (preferences: PreferencesState, result: CommandResult) {
        let holdings = try raw.map { try NewsRules.holdings($0) }
        let identity = Readers.identity(xUserId)
        // An id that never set anything, setting what everyone starts with, becomes no reader.
        let unset = PreferencesState()
        if focus ?? unset.focusProfile == unset.focusProfile, holdings ?? unset.holdings == unset.holdings,
           try existingReader(xUserId) == nil, try !store.streamExists(NewsStreams.preferences(xUserId)) {
            return (unset, try store.commandResult(store.log.headPosition))
        }
        for _ in 0..<3 {
            let reader = try await registration.signIn(identity) { userId in
                (.readerClaimed(ReaderClaimed(subject: xUserId, userId: userId)), .readerRegistered(ReaderRegistered(userId: userId)))
            }.userId
            let beforeReaders = try preferencesBeforeReaders(of: xUserId, for: reader)
            var decided = PreferencesState()
            do {
                let result = try await store.decideAndAppend(NewsStreams.user(reader), as: PreferencesState.self, eventId: .timeOrdered()) { stream in
                    guard try !store.personalData.isErased(reader) else { throw ReaderErased() }
                    let state = stream.isSet ? stream : beforeReaders
                    let wanted = (focus ?? state.focusProfile, holdings ?? state.holdings)
                    let events: [NewsEvent] = state.focusProfile == wanted.0 && state.holdings == wanted.1
                        ? [] : [.preferencesSet(PreferencesSet(userId: reader, focusProfile: wanted.0, holdings: wanted.1))]
                    decided = events.reduce(into: state) { $0.evolve($1) }
                    return events
                }
                return (decided, result)
            } catch is ReaderErased {
                continue
            }
        }
        throw CommandError.tooMuchContention
    }

    /// What the id set before readers, for its first reader; nothing for a later one (a reader
    /// erased since took them along).
    private func preferencesBeforeReaders(of xUserId: String, for reader: Int64) throws -> PreferencesState {
        let stream = NewsStreams.preferences(xUserId)
        guard try store.streamExists(stream) else { return PreferencesState() }
        let firstReader = try store.readStream(Readers.identity(xUserId).stream).events.lazy.compactMap { recorded -> Int64? in
            if case .readerClaimed(let claim) = recorded.event { claim.userId } else { nil }
        }.first
        return firstReader == reader ? try store.state(of: stream, as: PreferencesState.self).state : PreferencesState()
    }

    private struct ReaderErased: Error {}
}
