import Foundation

/// One kind of payload a `PayloadCatalog` knows, and the event case it is.
public struct PayloadType<Event: Sendable>: Sendable {
    let type: any EventPayload.Type
    let decode: @Sendable (Data, JSONDecoder) throws -> Event

    public init<Payload: EventPayload>(_ type: Payload.Type, _ event: @escaping @Sendable (Payload) -> Event) {
        self.type = type
        decode = { data, decoder in event(try decoder.decode(Payload.self, from: data)) }
    }

    public var typeName: String { type.typeName }
    public var schemaVersion: UInt16 { type.schemaVersion }
}

/// A catalog whose events are exactly the payloads in `payloadTypes`, one enum case each: the one
/// list of what can be in the log. Decoding looks types up in it, and encoding refuses an event
/// whose type is not in it, so nothing is ever written that could not be read back.
public protocol PayloadCatalog: EventCatalog {
    static var payloadTypes: [PayloadType<Event>] { get }
    /// The payload an event wraps, whichever case it is.
    static func payload(of event: Event) -> any EventPayload
}

public enum PayloadCatalogFailure: Error, Equatable, Sendable {
    case unknownType(String, schemaVersion: UInt16)
    /// An event whose payload type is missing from `payloadTypes`.
    case unregistered(String)
}

extension PayloadCatalog {
    public static func encode(_ event: Event, with encoder: JSONEncoder) throws -> EncodedEvent {
        try encoded(payload(of: event), with: encoder)
    }

    public static func decode(type: String, schemaVersion: UInt16, payload: Data, with decoder: JSONDecoder) throws -> Event {
        guard let registered = registered(type, schemaVersion) else {
            throw PayloadCatalogFailure.unknownType(type, schemaVersion: schemaVersion)
        }
        return try registered.decode(payload, decoder)
    }

    private static func registered(_ type: String, _ schemaVersion: UInt16) -> PayloadType<Event>? {
        payloadTypes.first { $0.type.typeName == type && $0.type.schemaVersion == schemaVersion }
    }

    private static func encoded<P: EventPayload>(_ payload: P, with encoder: JSONEncoder) throws -> EncodedEvent {
        guard let registered = registered(P.typeName, P.schemaVersion), registered.type == P.self else {
            throw PayloadCatalogFailure.unregistered(P.typeName)
        }
        return EncodedEvent(type: P.typeName, schemaVersion: P.schemaVersion, payload: try encoder.encode(payload))
    }
}
