import ReadModels
import ArgumentParser
import EventLog
import Foundation
import ProductHosting

/// `<product> audit --user ID | --stream NAME`: every event a user caused or that concerns them, or
/// one stream's whole history, oldest first. Reads the log directly, so it works while the server
/// runs (LMDB readers do not block the writer).
public struct AuditCommand<Product: EventSourcedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "audit",
            abstract: "List every event a user caused or that concerns them, or one stream's history (every change to one entity)."
        )
    }

    public enum Format: String, ExpressibleByArgument, CaseIterable, Sendable { case table, json }

    @OptionGroup var global: ProductOptions<Product>

    @Option(help: "The user id.")
    var user: Int64?

    @Option(help: "A stream's name (see the product's projections docs for its stream names).")
    var stream: String?

    @Option(help: "Only events recorded at or after this time (2024-01-15T10:30:00Z or 2024-01-15).", transform: OperatorTime.argument)
    var from: Date?

    @Option(help: "Only events recorded at or before this time (a time to the second: within that second too).", transform: OperatorTime.argumentThrough)
    var to: Date?

    @Option(help: "table (default) or json (one JSON object per line).")
    var format: Format = .table

    public init() {}

    public func validate() throws {
        guard (user == nil) != (stream == nil) else { throw ValidationError("give exactly one of --user and --stream") }
    }

    public func run() async throws {
        _ = global.logger()
        let log = try EventLog(configuration: .init(directory: try global.existingProductDirectory().log))
        defer { log.close() }
        let trail = AuditTrail(log: log, catalog: Product.Catalog.self)
        let entries = try (user.map { try trail.user($0) } ?? trail.stream(stream ?? "")).filter { entry in
            from.map { entry.recordedAt >= $0 } ?? true && to.map { entry.recordedAt <= $0 } ?? true
        }
        switch format {
        case .json:
            for entry in entries { print(try Self.jsonLine(entry)) }
        case .table:
            print(["position", "recorded_at", "role", "actor", "type", "stream", "payload"].joined(separator: "\t"))
            for entry in entries {
                print([
                    "\(entry.position)", entry.recordedAt.formatted(.iso8601), entry.role.rawValue, entry.actorUserId.map(String.init) ?? "-",
                    "\(entry.type) v\(entry.schemaVersion)",
                    entry.streamId, String(decoding: entry.payload, as: UTF8.self),
                ].joined(separator: "\t"))
            }
            FileHandle.standardError.write(Data("\(entries.count) events for \(user.map { "user \($0)" } ?? "stream \(stream ?? "")")\n".utf8))
        }
    }

    static func jsonLine(_ entry: AuditEntry) throws -> String {
        let object: [String: Any] = [
            "position": entry.position, "event_id": entry.eventId.uuidString.lowercased(), "type": entry.type,
            "schema_version": entry.schemaVersion, "stream": entry.streamId, "recorded_at": entry.recordedAt.formatted(.iso8601),
            "role": entry.role.rawValue, "actor_user_id": entry.actorUserId.map { $0 as Any } ?? NSNull(),
            "payload": try JSONSerialization.jsonObject(with: entry.payload),
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }
}
