import EventLog
import Foundation

/// One kind of fact a product records: a stable wire name, a schema version and a Codable payload.
public protocol EventPayload: Codable, Sendable, Equatable {
    static var typeName: String { get }
    static var schemaVersion: UInt16 { get }
}

/// A product's events as the engine handles them: how each is written to the log and read back
/// (older schema versions upcast to the current shape), and which users it concerns, for the
/// per-user history that audit, time travel and erasure read.
public protocol EventCatalog: Sendable {
    associatedtype Event: Sendable & Equatable

    static func encode(_ event: Event) throws -> EncodedEvent
    static func decode(type: String, schemaVersion: UInt16, payload: Data) throws -> Event
    /// The user whose action this is, if any.
    static func actorUserId(of event: Event) -> Int64?
    /// Other users this event concerns.
    static func subjectUserIds(of event: Event) -> [Int64]
    /// The product's namespace for event ids derived from names (`EventIds`). Never change it: every
    /// id derived so far depends on it.
    static var eventIdNamespace: String { get }
}

/// An event's wire form.
public struct EncodedEvent: Sendable, Equatable {
    public var type: String
    public var schemaVersion: UInt16
    public var payload: Data

    public init(type: String, schemaVersion: UInt16, payload: Data) {
        self.type = type
        self.schemaVersion = schemaVersion
        self.payload = payload
    }
}

/// An event as read back from the log: the fact and where and when it was recorded.
public struct Recorded<Event: Sendable & Equatable>: Sendable, Equatable {
    public var position: UInt64
    public var eventId: UUID
    public var streamId: String
    public var streamVersion: UInt64
    public var recordedAt: Date
    public var event: Event

    public init(position: UInt64, eventId: UUID, streamId: String, streamVersion: UInt64, recordedAt: Date, event: Event) {
        self.position = position
        self.eventId = eventId
        self.streamId = streamId
        self.streamVersion = streamVersion
        self.recordedAt = recordedAt
        self.event = event
    }
}

extension EventCatalog {
    /// The id this product derives from `name`: the same name, the same id.
    public static func derivedEventId(from name: String) -> UUID {
        EventIds.derived(from: name, namespace: eventIdNamespace)
    }

    /// `event` ready for the log, under `id`.
    public static func newEvent(_ event: Event, id: UUID = .timeOrdered(), recordedAt: Date? = nil) throws -> NewEvent {
        let encoded = try encode(event)
        return NewEvent(
            id: id, type: encoded.type, schemaVersion: encoded.schemaVersion, actorUserId: actorUserId(of: event),
            userIds: subjectUserIds(of: event), recordedAt: recordedAt, payload: encoded.payload
        )
    }

    public static func decode(_ recorded: RecordedEvent) throws -> Recorded<Event> {
        Recorded(
            position: recorded.position, eventId: recorded.id, streamId: recorded.streamId,
            streamVersion: recorded.streamVersion, recordedAt: recorded.recordedAt,
            event: try decode(type: recorded.type, schemaVersion: recorded.schemaVersion, payload: recorded.payload)
        )
    }
}
