import EventLog
import EventSourcing
import ReadModels
import Foundation

/// One event in an audit listing, as recorded: where, when, what, and the user's part in it.
public struct AuditEntry: Sendable, Equatable {
    public enum Role: String, Sendable {
        /// The user did it.
        case actor
        /// It was done to or about the user (a friend request they received, a like on their review…).
        case subject
        /// Neither: the log browser lists everything.
        case none
    }

    public var position: UInt64
    public var eventId: UUID
    public var type: String
    public var schemaVersion: UInt16
    public var streamId: String
    public var recordedAt: Date
    public var actorUserId: Int64?
    public var role: Role
    /// The event's JSON in its current schema without its personal fields (`AuditTrail`).
    public var payload: Data
}

/// Reads the log for operators: everything one user did or that concerns them, one stream's history,
/// and the raw log in order. Personal fields are never shown, sealed or not (a log written before
/// sealing holds some in clear): each payload is decoded and shown without them, so an audit shows
/// what happened, and not what anyone wrote.
public struct AuditTrail: Sendable {
    let log: EventLog
    private let present: @Sendable (RecordedEvent) throws -> Data

    public init<Catalog: EventCatalog>(log: EventLog, catalog: Catalog.Type) {
        self.log = log
        present = { try Catalog.presentedPayload(of: $0, opening: WithheldPersonalData()) }
    }

    /// The user's events, oldest first, recorded within `from...to` when given.
    public func user(_ userId: Int64, from: Date? = nil, to: Date? = nil) throws -> [AuditEntry] {
        try log.readUser(userId)
            .filter { event in from.map { event.recordedAt >= $0 } ?? true && to.map { event.recordedAt <= $0 } ?? true }
            .map { try entry($0, role: $0.actorUserId == userId ? .actor : .subject) }
    }

    /// One stream's events (one recipe's, one conversation's…), oldest first.
    public func stream(_ streamId: String) throws -> [AuditEntry] {
        try log.readStream(streamId).map { try entry($0, role: .none) }
    }

    /// Up to `limit` events from `position` on, in log order.
    public func events(from position: UInt64, limit: Int) throws -> [AuditEntry] {
        try log.read(from: position, limit: limit).map { try entry($0, role: .none) }
    }

    public var headPosition: UInt64 { log.headPosition }

    private func entry(_ event: RecordedEvent, role: AuditEntry.Role) throws -> AuditEntry {
        AuditEntry(
            position: event.position, eventId: event.id, type: event.type, schemaVersion: event.schemaVersion, streamId: event.streamId,
            recordedAt: event.recordedAt, actorUserId: event.actorUserId, role: role, payload: try present(event)
        )
    }
}
