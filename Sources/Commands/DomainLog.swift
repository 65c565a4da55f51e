import Domain
import EventLog
import Foundation

/// The event log seen in domain terms: appends `DomainEvent`s and reads them back decoded.
public struct DomainLog: Sendable {
    public let log: EventLog
    private let decodedStreams = DecodedStreams()

    public init(log: EventLog) {
        self.log = log
    }

    public static func newEvent(_ event: DomainEvent, id: UUID = .timeOrdered(), recordedAt: Date? = nil) throws -> NewEvent {
        let encoded = try EventCodec.encode(event)
        return NewEvent(
            id: id, type: encoded.type, schemaVersion: encoded.schemaVersion, actorUserId: event.actorUserId,
            userIds: event.subjectUserIds, recordedAt: recordedAt, payload: encoded.payload
        )
    }

    public static func decode(_ recorded: RecordedEvent) throws -> Recorded<DomainEvent> {
        Recorded(
            position: recorded.position, eventId: recorded.id, streamId: recorded.streamId,
            streamVersion: recorded.streamVersion, recordedAt: recorded.recordedAt,
            event: try EventCodec.decode(type: recorded.type, schemaVersion: recorded.schemaVersion, payload: recorded.payload)
        )
    }

    /// The whole stream, decoded; events decoded for an earlier read of the stream are reused.
    public func readStream(_ streamId: String) throws -> (events: [Recorded<DomainEvent>], version: UInt64) {
        let known = decodedStreams.prefix(of: streamId)
        let appended = try log.readStream(streamId, fromVersion: UInt64(known.count) + 1).map(Self.decode)
        let events = known + appended
        if !appended.isEmpty { decodedStreams.keep(events, of: streamId) }
        return (events, events.last?.streamVersion ?? 0)
    }

    public func event(at position: UInt64) throws -> Recorded<DomainEvent>? {
        try log.event(at: position).map(Self.decode)
    }

    public func streamExists(_ streamId: String) throws -> Bool {
        try log.streamVersion(streamId) > 0
    }
}
