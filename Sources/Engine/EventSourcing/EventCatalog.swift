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

    /// `event`'s wire form, its payload written by `encoder` (which seals its `@Personal` fields).
    static func encode(_ event: Event, with encoder: JSONEncoder) throws -> EncodedEvent
    /// The event a wire form holds, its payload read by `decoder` (which opens its `@Personal` fields).
    static func decode(type: String, schemaVersion: UInt16, payload: Data, with decoder: JSONDecoder) throws -> Event
    /// The user whose action this is, if any.
    static func actorUserId(of event: Event) -> Int64?
    /// Other users this event concerns.
    static func subjectUserIds(of event: Event) -> [Int64]
    /// The product's namespace for event ids derived from names (`EventIds`). Never change it: every
    /// id derived so far depends on it.
    static var eventIdNamespace: String { get }
    /// The product's case for the engine's erasure event, which its catalog registers.
    static func userErased(_ erasure: UserErased) -> Event
    /// The erasure `event` is, if it is that case.
    static func erasure(in event: Event) -> UserErased?
    /// What folding `event` changes, for answers remembered by scope (`RememberedReads`).
    static func readScopes(of event: Event) -> ReadScopes
}

extension EventCatalog {
    /// Everything: a product that names no scopes keeps its remembered answers only while nothing is folded.
    public static func readScopes(of event: Event) -> ReadScopes { .everything }
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

    /// `event` ready for the log, under `id`, its personal fields sealed by `personalData`.
    public static func newEvent(
        _ event: Event, id: UUID = .timeOrdered(), recordedAt: Date? = nil, personalData: any PersonalDataCipher
    ) throws -> NewEvent {
        let actor = actorUserId(of: event)
        let encoded = try encode(event, with: personalData.encoder(owner: actor))
        return NewEvent(
            id: id, type: encoded.type, schemaVersion: encoded.schemaVersion, actorUserId: actor,
            userIds: subjectUserIds(of: event), recordedAt: recordedAt, payload: encoded.payload
        )
    }

    /// `recorded` read back, its personal fields opened by `personalData`.
    public static func decode(_ recorded: RecordedEvent, personalData: any PersonalDataCipher) throws -> Recorded<Event> {
        Recorded(
            position: recorded.position, eventId: recorded.id, streamId: recorded.streamId,
            streamVersion: recorded.streamVersion, recordedAt: recorded.recordedAt,
            event: try decode(
                type: recorded.type, schemaVersion: recorded.schemaVersion, payload: recorded.payload,
                with: personalData.decoder(owner: recorded.actorUserId)
            )
        )
    }

    /// `recorded`'s payload in its current schema as JSON, its personal fields opened by `opening`
    /// and written as opened: what an audit (`WithheldPersonalData`) or an export shows.
    public static func presentedPayload(of recorded: RecordedEvent, opening: any PersonalDataCipher) throws -> Data {
        let event = try decode(recorded, personalData: opening).event
        return try encode(event, with: PresentedPersonalData().encoder(owner: recorded.actorUserId)).payload
    }
}

/// Writes personal values as given, for presenting an event already opened; never used for the log.
private struct PresentedPersonalData: PersonalDataCipher {
    var presentsInClear: Bool { true }
    func seal(_ value: String, owner: Int64, field: String) throws -> String { value }
    func open(_ stored: String, owner: Int64, field: String) throws -> String? { stored }
    var keyDestructions: UInt64 { 0 }
    func onKeysDestroyed(_ action: @escaping @Sendable (UInt64) -> Void) {}
}
