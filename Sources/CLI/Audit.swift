import NuvieAPI
import ArgumentParser
import NuvieCommands
import EventLog
import Foundation

/// `nuvie audit --user ID`: every event a user caused or that concerns them, oldest first. Reads the
/// log directly, so it works while the server runs (LMDB readers do not block the writer).
struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every event a user caused or that concerns them (ratings, reviews, likes, watch events, watchlist, friend requests both ways, profile changes)."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @OptionGroup var global: GlobalOptions

    @Option(help: "The user id.")
    var user: Int64

    @Option(help: "Only events recorded at or after this time (2024-01-15T10:30:00Z or 2024-01-15).", transform: Audit.time)
    var from: Date?

    @Option(help: "Only events recorded at or before this time.", transform: Audit.time)
    var to: Date?

    @Option(help: "table (default) or json (one JSON object per line).")
    var format: Format = .table

    func run() async throws {
        _ = Bootstrap.logging(level: global.logLevel)
        let log = try EventLog(configuration: .init(directory: global.dataDirectory.appendingPathComponent("log")))
        defer { log.close() }
        let entries = try AuditTrail(log: log).user(user, from: from, to: to)
        switch format {
        case .json:
            for entry in entries { print(try Self.jsonLine(entry)) }
        case .table:
            print(["position", "recorded_at", "role", "type", "stream", "payload"].joined(separator: "\t"))
            for entry in entries {
                print([
                    "\(entry.position)", ContractJSON.timestamp(entry.recordedAt), entry.role.rawValue, "\(entry.type) v\(entry.schemaVersion)",
                    entry.streamId, String(decoding: entry.payload, as: UTF8.self),
                ].joined(separator: "\t"))
            }
            FileHandle.standardError.write(Data("\(entries.count) events for user \(user)\n".utf8))
        }
    }

    static func time(_ text: String) throws -> Date {
        guard let date = OperatorTime.parse(text) else { throw ValidationError("\(text) is not a time like 2024-01-15T10:30:00Z or a date like 2024-01-15") }
        return date
    }

    static func jsonLine(_ entry: AuditEntry) throws -> String {
        let object: [String: Any] = [
            "position": entry.position, "event_id": entry.eventId.uuidString.lowercased(), "type": entry.type,
            "schema_version": entry.schemaVersion, "stream": entry.streamId, "recorded_at": ContractJSON.timestamp(entry.recordedAt),
            "role": entry.role.rawValue, "actor_user_id": entry.actorUserId.map { $0 as Any } ?? NSNull(),
            "payload": try JSONSerialization.jsonObject(with: entry.payload),
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }
}
