import EventLog
import Foundation

/// The event log seen in one product's terms: appends its events and reads them back decoded, and
/// runs decisions against a stream (`decideAndAppend`).
public struct EventStore<Catalog: EventCatalog>: Sendable {
    public typealias Event = Catalog.Event

    public let log: EventLog
    /// Seals the personal fields of what is appended and opens those of what is read.
    public let personalData: any PersonalDataCipher
    private let decodedStreams = DecodedStreams<Event>()
    private static var maximumAttempts: Int { 5 }

    public init(log: EventLog, personalData: any PersonalDataCipher) {
        self.log = log
        self.personalData = personalData
    }

    /// `event` ready for the log, its personal fields sealed.
    public func newEvent(_ event: Event, id: UUID = .timeOrdered(), recordedAt: Date? = nil) throws -> NewEvent {
        try Catalog.newEvent(event, id: id, recordedAt: recordedAt, personalData: personalData)
    }

    public func decode(_ recorded: RecordedEvent) throws -> Recorded<Event> {
        try Catalog.decode(recorded, personalData: personalData)
    }

    /// Forgets every stream decoded so far: after an erasure, so that no command reads its user's
    /// personal values as they were before.
    public func forgetDecodedStreams() {
        decodedStreams.removeAll()
    }

    /// The whole stream, decoded; events decoded for an earlier read of the stream are reused.
    public func readStream(_ streamId: String) throws -> (events: [Recorded<Event>], version: UInt64) {
        let (known, forgotten) = decodedStreams.prefix(of: streamId)
        let appended = try log.readStream(streamId, fromVersion: UInt64(known.count) + 1).map(decode)
        let events = known + appended
        if !appended.isEmpty { decodedStreams.keep(events, of: streamId, readBefore: forgotten) }
        return (events, events.last?.streamVersion ?? 0)
    }

    public func event(at position: UInt64) throws -> Recorded<Event>? {
        try log.event(at: position).map(decode)
    }

    public func streamExists(_ streamId: String) throws -> Bool {
        try log.streamVersion(streamId) > 0
    }

    /// Loads `stream`, decides from its events, and appends what was decided with the version it was
    /// decided against, retrying from the load when another writer got there first. A decision to
    /// record nothing answers with the current head, so read-your-writes has nothing to wait for.
    ///
    /// When `eventId` is already recorded (a request retried under its `Idempotency-Key`), the
    /// decision is made again against the stream as it stood before that event: the same request
    /// decides the same events, which the log recognises; a different one is refused by the log
    /// (`eventIdReused`), or here when it would record nothing.
    public func decideAndAppend(
        _ stream: String, eventId: UUID, decide: ([Recorded<Event>]) throws -> [Event]
    ) async throws -> CommandResult {
        try await withRetry {
            let original = try log.position(ofEvent: eventId)
            let (events, version) = try readStream(stream)
            let decided = try decide(original.map { original in events.filter { $0.position < original } } ?? events)
            if let original, decided.isEmpty { throw EventLogError.eventIdReused(eventId: eventId, position: original) }
            guard !decided.isEmpty else { return try commandResult(log.headPosition) }
            let result = try await log.append(
                to: stream, expectedVersion: version == 0 ? .noStream : .exact(version),
                events: try decided.enumerated().map { try newEvent($1, id: EventIds.nth($0, of: eventId, namespace: Catalog.eventIdNamespace)) }
            )
            return try commandResult(result.lastPosition)
        }
    }

    /// Appends `events` to `stream` whatever it holds (facts no decision depends on).
    public func append(_ events: [Event], to stream: String, eventId: UUID) async throws -> CommandResult {
        let result = try await log.append(
            to: stream, expectedVersion: .any, events: try events.enumerated().map { try newEvent($1, id: EventIds.nth($0, of: eventId, namespace: Catalog.eventIdNamespace)) }
        )
        return try commandResult(result.lastPosition)
    }

    public func commandResult(_ position: UInt64) throws -> CommandResult {
        let recordedAt = try log.event(at: position)?.recordedAt ?? Date()
        return CommandResult(position: position, recordedAt: recordedAt)
    }

    /// Runs `attempt` again while another writer changed its stream first, at most five times.
    public func withRetry<T>(_ attempt: () async throws -> T) async throws -> T {
        for _ in 1..<Self.maximumAttempts {
            do {
                return try await attempt()
            } catch EventLogError.wrongExpectedVersion {
                continue
            }
        }
        return try await attempt()
    }
}

public enum CommandError: Error, Equatable, Sendable {
    /// The same streams kept changing under the command; the caller may retry.
    case tooMuchContention
}
