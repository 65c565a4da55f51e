import Foundation
import Hummingbird
import ReadModels

/// The log's pages: events newest first (by stream, by type), one event, and one stream stepped
/// through by position or instant: the entity as its events stood then.
extension ConsoleController {
    static var pageSize: Int { 50 }
    /// How far back one page of a type filter looks before it offers to look further.
    static var scanLimit: UInt64 { 20_000 }

    func events(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        let stream = request.uri.queryParameters["stream"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let type = request.uri.queryParameters["type"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let head = audit.headPosition
        let before = request.uri.queryParameters["before"].flatMap { UInt64($0) }.map { min($0, head + 1) } ?? head + 1
        let audit = audit
        let (found, scannedDownTo) = try await BlockingWork.run { try Self.newestFirst(in: audit, before: before, stream: stream, type: type) }
        let shown = Array(found.prefix(Self.pageSize))
        let more = found.count > Self.pageSize || scannedDownTo > 1
        let next = more ? (shown.last?.position ?? scannedDownTo) : nil
        let values: [String: Any] = [
            "stream": stream ?? "", "type": type ?? "", "events": shown.map(EventRow.init),
            "summary": shown.isEmpty ? "No events \(Self.describe(stream: stream, type: type)) below position \(before)." :
                "Positions \(shown.first?.position ?? 0) down to \(shown.last?.position ?? 0) of \(head)\(Self.describe(stream: stream, type: type)).",
            "older": next.map { ConsolePages.link("events", ["before": String($0), "stream": stream, "type": type]) } as Any,
        ]
        return pages.page("events", title: "Events", values, session: context.session)
    }

    func event(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        guard let position = context.parameters.get("position").flatMap(UInt64.init), position > 0,
              let entry = try audit.events(from: position, limit: 1).first, entry.position == position
        else {
            return pages.problem(.notFound, "The log has no event at position \(context.parameters.get("position") ?? "")", session: context.session)
        }
        var values = EventRow(entry).values
        values["payload"] = ConsolePages.pretty(entry.payload)
        values["previous"] = position > 1 ? position - 1 : nil
        values["next"] = position < audit.headPosition ? position + 1 : nil
        values["asOfLink"] = ConsolePages.link("stream", ["id": entry.streamId, "at": String(position)])
        return pages.page("event", title: "Event \(position)", values.compactMapValues { $0 }, session: context.session)
    }

    /// `?id=S[&at=P | &time=T]`: the stream's events up to a position (its latest by default), with
    /// its other positions to step to.
    func stream(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        let id = request.uri.queryParameters["id"].map(String.init) ?? ""
        let history = try audit.stream(id)
        guard let latest = history.last else {
            return pages.problem(.notFound, "No stream \(id) in the log", session: context.session)
        }
        let time = request.uri.queryParameters["time"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        var at = latest
        if let time {
            guard let instant = OperatorTime.parseThrough(time) else {
                return pages.problem(.badRequest, "\(time) is not a time like 2024-01-15T10:30:00Z or a date like 2024-01-15", session: context.session)
            }
            guard let found = history.last(where: { $0.recordedAt <= instant }) else {
                return pages.problem(.notFound, "Stream \(id) had no events yet at \(time)", session: context.session)
            }
            at = found
        } else if let position = request.uri.queryParameters["at"].flatMap({ UInt64($0) }) {
            at = history.last { $0.position <= position } ?? history[0]
        }
        let index = history.firstIndex { $0.position == at.position } ?? history.count - 1
        let step = { (entry: AuditEntry) in ConsolePages.link("stream", ["id": id, "at": String(entry.position)]) }
        let values: [String: Any?] = [
            "stream": id, "count": history.count, "countAt": index + 1, "at": at.position, "atTime": at.recordedAt.formatted(.iso8601),
            "time": time ?? "", "payload": ConsolePages.pretty(at.payload), "atType": at.type,
            "first": index > 0 ? step(history[0]) : nil, "previous": index > 0 ? step(history[index - 1]) : nil,
            "next": index + 1 < history.count ? step(history[index + 1]) : nil, "latest": index + 1 < history.count ? step(latest) : nil,
            "events": history[...index].suffix(200).reversed().map(EventRow.init),
        ]
        return pages.page("stream", title: "Stream \(id)", values.compactMapValues { $0 }, session: context.session)
    }

    /// Up to a page and one more of the events below `before`, newest first, and the position the
    /// scan reached (1: nothing older is left unread).
    private static func newestFirst(in audit: AuditTrail, before: UInt64, stream: String?, type: String?) throws -> ([AuditEntry], UInt64) {
        if let stream {
            let matching = try audit.stream(stream).reversed().filter { $0.position < before && (type == nil || $0.type == type) }
            return (Array(matching.prefix(pageSize + 1)), 1)
        }
        var found: [AuditEntry] = []
        var scannedDownTo = before
        while found.count <= pageSize, scannedDownTo > 1, before - scannedDownTo < scanLimit {
            let from = scannedDownTo > 500 ? scannedDownTo - 500 : 1
            found += try audit.events(from: from, limit: Int(scannedDownTo - from)).reversed().filter { type == nil || $0.type == type }
            scannedDownTo = from
        }
        return (found, scannedDownTo)
    }

    private static func describe(stream: String?, type: String?) -> String {
        [stream.map { " in stream \($0)" }, type.map { " of type \($0)" }].compactMap { $0 }.joined()
    }
}

/// An event's line in a listing.
struct EventRow {
    var position: UInt64
    var eventId: String
    var type: String
    var schemaVersion: UInt16
    var stream: String
    var streamLink: String
    var recordedAt: String
    var actor: Int64?
    var role: String?

    init(_ entry: AuditEntry) {
        position = entry.position
        eventId = entry.eventId.uuidString.lowercased()
        type = entry.type
        schemaVersion = entry.schemaVersion
        stream = entry.streamId
        streamLink = ConsolePages.link("stream", ["id": entry.streamId])
        recordedAt = entry.recordedAt.formatted(.iso8601)
        actor = entry.actorUserId
        role = entry.role == .none ? nil : entry.role.rawValue
    }

    var values: [String: Any?] {
        [
            "position": position, "eventId": eventId, "type": type, "schemaVersion": schemaVersion, "stream": stream, "streamLink": streamLink,
            "recordedAt": recordedAt, "actor": actor,
        ]
    }
}
