import EventSourcing
import Foundation

/// Savry's event catalog. `payloadTypes` is the one list of what can be in the log: decoding looks
/// types up in it, and encoding refuses an event whose type is not in it, so nothing is ever written
/// that could not be read back (`SavryCatalogTests` round-trips one event of every case).
///
/// Personal data is declared on the payloads' fields (`@Personal`, `@PersonalValue`): an identity's
/// subject, a recipe's content and every change to it. They are sealed under their event's actor's
/// data key by the encoder the engine hands `encode`, and opened (nil once that user is erased) by
/// the decoder it hands `decode`.
public enum SavryCatalog: EventCatalog {
    public typealias Event = SavryEvent

    public static let payloadTypes: [any SavryEventPayload.Type] = [
        IdentityClaimed.self,
        UserRegistered.self,
        RecipeCreated.self,
        RecipeUpdated.self,
        RecipeDeleted.self,
        UserErased.self,
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
    public static func subjectUserIds(of event: SavryEvent) -> [Int64] { event.subjectUserIds }
    public static let eventIdNamespace = "savry"

    public static func userErased(_ erasure: UserErased) -> SavryEvent { .userErased(erasure) }

    public static func encode(_ event: SavryEvent, with encoder: JSONEncoder) throws -> EncodedEvent {
        try encoded(event.payload, with: encoder)
    }

    public static func decode(type: String, schemaVersion: UInt16, payload: Data, with decoder: JSONDecoder) throws -> SavryEvent {
        guard let payloadType = decoders[Key(type: type, schemaVersion: schemaVersion)] else {
            throw CodingFailure.unknownType(type, schemaVersion: schemaVersion)
        }
        return try decoded(payloadType, payload, with: decoder)
    }

    private static func encoded<P: SavryEventPayload>(_ payload: P, with encoder: JSONEncoder) throws -> EncodedEvent {
        guard let registered = decoders[Key(type: P.typeName, schemaVersion: P.schemaVersion)], registered == P.self else { throw CodingFailure.unregistered(P.typeName) }
        return EncodedEvent(type: P.typeName, schemaVersion: P.schemaVersion, payload: try encoder.encode(payload))
    }

    private static func decoded<P: SavryEventPayload>(_ type: P.Type, _ payload: Data, with decoder: JSONDecoder) throws -> SavryEvent {
        try decoder.decode(P.self, from: payload).event
    }
}
