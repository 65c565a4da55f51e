import Foundation
import HTTPServing
import JSONText
import Hummingbird
import ReadModels

/// An event as the admin endpoints show it. The payload keeps the event's own field names.
struct AuditEntryDTO: Encodable, Sendable {
    var position: UInt64
    var eventId: String
    var type: String
    var schemaVersion: UInt16
    var stream: String
    var recordedAt: String
    @Nullable var actorUserId: Int64?
    @Nullable var role: String?
    var payload: JSONValue

    init(_ entry: AuditEntry) {
        position = entry.position
        eventId = entry.eventId.uuidString.lowercased()
        type = entry.type
        schemaVersion = entry.schemaVersion
        stream = entry.streamId
        recordedAt = entry.recordedAt.formatted(.iso8601)
        actorUserId = entry.actorUserId
        role = entry.role == .none ? nil : entry.role.rawValue
        payload = (try? StrictJSON.parse(Array(entry.payload))) ?? .null
    }
}

/// `GET /admin/users/{user_id}/audit`: a page of the user's events.
struct AuditPage: ResponseEncodable, Sendable {
    var events: [AuditEntryDTO]
    var totalCount: Int
    var limit: Int
    var offset: Int
    var hasMore: Bool
}

/// `GET /admin/events`: a page of the log and where the next one starts (null at the head).
struct LogPage: ResponseEncodable, Sendable {
    var events: [AuditEntryDTO]
    @Nullable var nextFrom: UInt64?
    var headPosition: UInt64
}

/// `POST /admin/users/{user_id}/erase`: the user erased, and where the log records it.
struct ErasureDTO: ResponseEncodable, Sendable {
    var userId: Int64
    var position: UInt64
}

/// `POST /admin/replay` and `GET /admin/replay`: the latest rebuild and how far it got.
struct ReplayStatusDTO: ResponseEncodable, Sendable {
    var state: String
    var projections: [String]
    @Nullable var position: UInt64?
    @Nullable var headPosition: UInt64?
    @Nullable var eventsPerSecond: Int?
    @Nullable var etaSeconds: Int?
    @Nullable var startedAt: String?
    @Nullable var finishedAt: String?
    @Nullable var error: String?

    init(_ status: ReplayCoordinator.Status) {
        state = status.state.rawValue
        projections = status.projections
        position = status.progress?.position
        headPosition = status.progress?.headPosition
        eventsPerSecond = status.progress?.eventsPerSecond
        etaSeconds = status.progress?.remaining.map { Int($0.components.seconds) }
        startedAt = status.startedAt.map { $0.formatted(.iso8601) }
        finishedAt = status.finishedAt.map { $0.formatted(.iso8601) }
        error = status.error
    }
}
