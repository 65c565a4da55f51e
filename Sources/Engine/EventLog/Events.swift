import Foundation

/// What a caller hands the log: one immutable fact, already encoded.
public struct NewEvent: Sendable, Equatable {
    public var id: UUID
    public var type: String
    public var schemaVersion: UInt16
    /// The user whose action this is, if any.
    public var actorUserId: Int64?
    /// Every user this event concerns (the actor is added automatically); indexed for per-user reads.
    public var userIds: [Int64]
    /// When it happened. Live appends use the clock; an importer passes the original time.
    public var recordedAt: Date?
    public var payload: Data

    public init(
        id: UUID = .timeOrdered(), type: String, schemaVersion: UInt16 = 1, actorUserId: Int64? = nil,
        userIds: [Int64] = [], recordedAt: Date? = nil, payload: Data
    ) {
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.actorUserId = actorUserId
        self.userIds = userIds
        self.recordedAt = recordedAt
        self.payload = payload
    }
}

/// An event as the log holds it, with its place in the log and in its stream.
public struct RecordedEvent: Sendable, Equatable {
    /// Global position: 1 for the first event, gap-free, strictly increasing.
    public var position: UInt64
    public var id: UUID
    public var type: String
    public var schemaVersion: UInt16
    public var streamId: String
    /// Position within the stream: 1 for its first event.
    public var streamVersion: UInt64
    /// Microseconds since 1970, as recorded.
    public var recordedAtMicroseconds: Int64
    public var actorUserId: Int64?
    public var userIds: [Int64]
    public var payload: Data

    public var recordedAt: Date { Date(timeIntervalSince1970: Double(recordedAtMicroseconds) / 1_000_000) }

    public init(
        position: UInt64, id: UUID, type: String, schemaVersion: UInt16, streamId: String, streamVersion: UInt64,
        recordedAtMicroseconds: Int64, actorUserId: Int64?, userIds: [Int64], payload: Data
    ) {
        self.position = position
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.streamId = streamId
        self.streamVersion = streamVersion
        self.recordedAtMicroseconds = recordedAtMicroseconds
        self.actorUserId = actorUserId
        self.userIds = userIds
        self.payload = payload
    }
}

/// The stream version an append expects to find.
public enum ExpectedVersion: Sendable, Equatable, CustomStringConvertible {
    /// Append whatever the stream holds.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream's last event must have exactly this version (versions start at 1).
    case exact(UInt64)

    public func accepts(_ current: UInt64) -> Bool {
        switch self {
        case .any: true
        case .noStream: current == 0
        case .exact(let version): current == version
        }
    }

    public var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no stream"
        case .exact(let version): "\(version)"
        }
    }
}

/// Events to append to one stream.
public struct StreamAppend: Sendable, Equatable {
    public var streamId: String
    public var expectedVersion: ExpectedVersion
    public var events: [NewEvent]

    public init(streamId: String, expectedVersion: ExpectedVersion, events: [NewEvent]) {
        self.streamId = streamId
        self.expectedVersion = expectedVersion
        self.events = events
    }
}

/// What an append did: the global position of every event, in the order given.
public struct AppendResult: Sendable, Equatable {
    public var positions: [UInt64]
    /// True when every event id was already in the log: nothing was written and the original
    /// positions are returned (a retried request).
    public var wasDuplicate: Bool

    public var lastPosition: UInt64 { positions.last ?? 0 }
}

public enum EventLogError: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongExpectedVersion(streamId: String, expected: ExpectedVersion, actual: UInt64)
    /// Some, but not all, of the event ids are already in the log.
    case partialDuplicate(eventIds: [UUID])
    /// The id is already recorded for a different event (stream, type or payload).
    case eventIdReused(eventId: UUID, position: UInt64)
    case invalidAppend(String)
    case corruptRecord(position: UInt64, reason: String)
    case closed
    case readOnly
    /// A shared log holds another event at `position` than this copy took from it: a server
    /// without every commit was promoted, and this copy's history is no longer the log's.
    case historyParted(position: UInt64)
    /// What a node copies from the shared store beside the events (its key store) no longer holds
    /// what the node took from it: `reason` says what.
    case copiedStateParted(reason: String)

    public var description: String {
        switch self {
        case let .wrongExpectedVersion(stream, expected, actual):
            "stream \(stream) is at version \(actual), expected \(expected)"
        case .partialDuplicate(let ids): "events already recorded: \(ids.map(\.uuidString).joined(separator: ", "))"
        case let .eventIdReused(id, position): "event id \(id.uuidString) is already recorded at position \(position) for a different event"
        case .invalidAppend(let reason): "invalid append: \(reason)"
        case let .corruptRecord(position, reason): "record at position \(position) is unreadable: \(reason)"
        case .closed: "the event log is closed"
        case .readOnly: "this event log is read-only"
        case .historyParted(let position): "the shared log holds another event at position \(position) than this copy took from it"
        case .copiedStateParted(let reason): "\(reason): a server without every commit was promoted; rebuild this node's data directory"
        }
    }
}
