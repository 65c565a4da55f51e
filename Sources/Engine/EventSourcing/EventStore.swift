import EventLog
import Foundation

/// The event log seen in one product's terms: appends its events and reads them back decoded, and
/// runs decisions against a stream (`decideAndAppend`).
public struct EventStore<Catalog: EventCatalog>: Sendable {
    public typealias Event = Catalog.Event

    public let log: EventLog
    /// Seals the personal fields of what is appended and opens those of what is read.
    public let personalData: any PersonalDataCipher
    private let foldedStreams = FoldedStreams()
    private let turns = StreamTurns()
    private static var maximumAttempts: Int { 5 }

    public init(log: EventLog, personalData: any PersonalDataCipher) {
        self.log = log
        self.personalData = personalData
        personalData.onKeysDestroyed { [weak foldedStreams] keyDestructions in foldedStreams?.keysDestroyed(keyDestructions) }
    }

    /// `event` ready for the log, its personal fields sealed (its owner's key prepared first when the
    /// key store is shared by several nodes and this node has not seen it yet). Refused at once by a
    /// read-only log: a past state's key store is the live one, where sealing would create keys for nothing.
    public func newEvent(_ event: Event, id: UUID = .timeOrdered(), recordedAt: Date? = nil) async throws -> NewEvent {
        guard !log.isReadOnly else { throw EventLogError.readOnly }
        do {
            return try Catalog.newEvent(event, id: id, recordedAt: recordedAt, personalData: personalData)
        } catch let missing as KeyNotPrepared {
            try await personalData.prepareKeys(for: [missing.owner])
            return try Catalog.newEvent(event, id: id, recordedAt: recordedAt, personalData: personalData)
        }
    }

    /// `event` ready for the log, for a batch whose owners' keys are prepared already
    /// (`personalData.prepareKeys`, once for thousands of events: an import).
    public func newEventWithPreparedKeys(_ event: Event, id: UUID = .timeOrdered(), recordedAt: Date? = nil) throws -> NewEvent {
        guard !log.isReadOnly else { throw EventLogError.readOnly }
        return try Catalog.newEvent(event, id: id, recordedAt: recordedAt, personalData: personalData)
    }

    /// `events` ready for the log, with the ids `EventIds.nth` derives from `eventId`.
    public func newEvents(_ events: [Event], eventId: UUID) async throws -> [NewEvent] {
        var new: [NewEvent] = []
        for (index, event) in events.enumerated() {
            new.append(try await newEvent(event, id: EventIds.nth(index, of: eventId, namespace: Catalog.eventIdNamespace)))
        }
        return new
    }

    public func decode(_ recorded: RecordedEvent) throws -> Recorded<Event> {
        try Catalog.decode(recorded, personalData: personalData)
    }

    /// The whole stream, decoded.
    public func readStream(_ streamId: String) throws -> (events: [Recorded<Event>], version: UInt64) {
        let events = try log.readStream(streamId).map(decode)
        return (events, events.last?.streamVersion ?? 0)
    }

    /// The stream's state now, and the version it is folded through (0 for no stream): the kept state
    /// folded with the events appended since.
    public func state<State: StreamState>(of streamId: String, as _: State.Type = State.self) throws -> (state: State, version: UInt64)
    where State.Event == Event {
        let (state, version, _) = try folded(streamId, as: State.self)
        return (state, version)
    }

    /// `state(of:)`, and how many times keys had been destroyed before it was read (`keep`).
    private func folded<State: StreamState>(_ streamId: String, as _: State.Type) throws -> (state: State, version: UInt64, keyDestructions: UInt64)
    where State.Event == Event {
        let keyDestructions = personalData.keyDestructions
        var (state, version) = foldedStreams.state(State.self, of: streamId, keyDestructions: keyDestructions) ?? (State(), 0)
        let appended = try log.readStream(streamId, fromVersion: version + 1)
        guard !appended.isEmpty else { return (state, version, keyDestructions) }
        for recorded in appended {
            state.evolve(try decode(recorded))
            version = recorded.streamVersion
        }
        foldedStreams.keep(state, version: version, of: streamId, keyDestructions: keyDestructions)
        return (state, version, keyDestructions)
    }

    /// Keeps the state a decision leaves: `state` evolved by the events it decided, as the log
    /// recorded them (positions, times) but not decoded again, since they are the events decided.
    /// The next decision on the stream then folds nothing (opening sealed fields is most of a fold).
    /// The append is durable already: a failure here only leaves the next decision to fold them.
    private func keep<State: StreamState>(
        _ state: State, evolvedBy decided: [Event], on stream: String, after version: UInt64, keyDestructions: UInt64
    ) where State.Event == Event {
        guard let appended = try? log.readStream(stream, fromVersion: version + 1), appended.count == decided.count else { return }
        var state = state
        for (recorded, event) in zip(appended, decided) {
            state.evolve(Recorded(
                position: recorded.position, eventId: recorded.id, streamId: recorded.streamId, streamVersion: recorded.streamVersion,
                recordedAt: recorded.recordedAt, event: event
            ))
        }
        foldedStreams.keep(state, version: version + UInt64(decided.count), of: stream, keyDestructions: keyDestructions)
    }

    public func event(at position: UInt64) throws -> Recorded<Event>? {
        try log.event(at: position).map(decode)
    }

    /// Whether `eventId` is recorded: a request retried, or its `Idempotency-Key` used before.
    public func isRecorded(_ eventId: UUID) throws -> Bool {
        try log.position(ofEvent: eventId) != nil
    }

    public func streamExists(_ streamId: String) throws -> Bool {
        try log.streamVersion(streamId) > 0
    }

    /// Folds `stream` into a `State`, decides from it, and appends what was decided with the version
    /// it was decided against, retrying from the fold when another writer got there first. Decisions
    /// on one stream in this process take turns (`StreamTurns`), so only other processes race. A decision
    /// to record nothing answers with the current head, so read-your-writes has nothing to wait for.
    ///
    /// When `eventId` is already recorded (a request retried under its `Idempotency-Key`), the
    /// decision is made again against the stream as it stood before that event: the same request
    /// decides the same events, which the log recognises; a different one is refused by the log
    /// (`eventIdReused`), or here when it would record nothing.
    public func decideAndAppend<State: StreamState>(
        _ stream: String, as _: State.Type, eventId: UUID, decide: (State) throws -> [Event]
    ) async throws -> CommandResult where State.Event == Event {
        try await turns.inTurn(on: stream) { try await withRetry {
            let original = try log.position(ofEvent: eventId)
            let (state, version, keyDestructions) = try folded(stream, as: State.self)
            let decidingOn = try original.map { original in
                State.fold(try readStream(stream).events.prefix { $0.position < original })
            } ?? state
            let decided: [Event]
            do {
                decided = try decide(decidingOn)
            } catch let refusal as any DecisionRefusal {
                // The same request decides the same on the state it was recorded on: one refused
                // there is another request under the same key. (A decision that also reads a fact
                // outside the stream, another user's existence, can be refused on a retry after that
                // fact changed: answered as a reused key too.)
                if let original { throw EventLogError.eventIdReused(eventId: eventId, position: original) }
                throw refusal
            }
            if let original, decided.isEmpty { throw EventLogError.eventIdReused(eventId: eventId, position: original) }
            guard !decided.isEmpty else { return try commandResult(log.headPosition) }
            let result = try await log.append(
                to: stream, expectedVersion: version == 0 ? .noStream : .exact(version), events: try await newEvents(decided, eventId: eventId)
            )
            if original == nil, !result.wasDuplicate { keep(state, evolvedBy: decided, on: stream, after: version, keyDestructions: keyDestructions) }
            return try commandResult(result.lastPosition)
        } }
    }

    /// Runs `body` while no decision on `stream` is made in this process, for a command that decides
    /// from more than the stream's events (an erasure, from its user's key): two of them take turns.
    public func inTurn<T>(on stream: String, _ body: () async throws -> T) async throws -> T {
        try await turns.inTurn(on: stream, body)
    }

    /// Appends `events` to `stream` whatever it holds (facts no decision depends on).
    public func append(_ events: [Event], to stream: String, eventId: UUID) async throws -> CommandResult {
        let result = try await log.append(to: stream, expectedVersion: .any, events: try await newEvents(events, eventId: eventId))
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

/// What a decision refuses from the state it decides on (a missing session, an invalid rating): each
/// product's domain error. Under a key already recorded, one such refusal means another request
/// (`decideAndAppend`), where a failure to read or write means nothing about the request.
public protocol DecisionRefusal: Error {}

public enum CommandError: Error, Equatable, Sendable {
    /// The same streams kept changing under the command; the caller may retry.
    case tooMuchContention
}
