import EventSourcing
import Foundation

/// Savry's event catalog. `payloadTypes` is the one list of what can be in the log: decoding looks
/// types up in it, and encoding refuses an event whose type is not in it, so nothing is ever written
/// that could not be read back (`SavryCatalogTests` round-trips one event of every case).
public enum SavryCatalog: EventCatalog {
    public typealias Event = SavryEvent

    public static let payloadTypes: [any SavryEventPayload.Type] = [
        IdentityClaimed.self,
        UserRegistered.self,
        RecipeCreated.self,
        RecipeUpdated.self,
        RecipeDeleted.self,
    ]

    public enum CodingFailure: Error, Equatable, Sendable {
        case unknownType(String, schemaVersion: UInt16)
        /// An event whose payload type is missing from `payloadTypes`.
        case unregistered(String)
    }

    private static let decoders: [Key: any SavryEventPayload.Type] = Dictionary(
        uniqueKeysWithValues: payloadTypes.map { (Key(type: $0.typeName, schemaVersion: $0.schemaVersion), $0) }
    )

    private struct Key: Hashable {
        var type: String
        var schemaVersion: UInt16
    }

    public static func actorUserId(of event: SavryEvent) -> Int64? { event.actorUserId }
    public static func subjectUserIds(of event: SavryEvent) -> [Int64] { [] }
    public static let eventIdNamespace = "savry"

    public static func encode(_ event: SavryEvent) throws -> EncodedEvent {
        try encoded(event.payload)
    }

    public static func decode(type: String, schemaVersion: UInt16, payload: Data) throws -> SavryEvent {
        guard let payloadType = decoders[Key(type: type, schemaVersion: schemaVersion)] else {
            throw CodingFailure.unknownType(type, schemaVersion: schemaVersion)
        }
        return try decoded(payloadType, payload)
    }

    private static func encoded<P: SavryEventPayload>(_ payload: P) throws -> EncodedEvent {
        guard let registered = decoders[Key(type: P.typeName, schemaVersion: P.schemaVersion)], registered == P.self else { throw CodingFailure.unregistered(P.typeName) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return EncodedEvent(type: P.typeName, schemaVersion: P.schemaVersion, payload: try encoder.encode(payload))
    }

    private static func decoded<P: SavryEventPayload>(_ type: P.Type, _ payload: Data) throws -> SavryEvent {
        try JSONDecoder().decode(P.self, from: payload).event
    }
}
