import Foundation

/// One kind of payload a `PayloadCatalog` knows at one schema version, and the event case it is
/// read back as (an older version upcast to the current shape in `event`).
public struct PayloadType<Event: Sendable>: Sendable {
    let type: any EventPayload.Type
    let decode: @Sendable (Data, JSONDecoder) throws -> Event

    public init<Payload: EventPayload>(_ type: Payload.Type, _ event: @escaping @Sendable (Payload) -> Event) {
        self.type = type
        decode = { data, decoder in event(try decoder.decode(Payload.self, from: data)) }
    }

    public var typeName: String { type.typeName }
    public var schemaVersion: UInt16 { type.schemaVersion }
    public var wireName: WireName { WireName(type: type.typeName, schemaVersion: type.schemaVersion) }
}

/// What the log records of an event's kind: its type name and schema version.
public struct WireName: Hashable, Sendable, CustomStringConvertible {
    public var type: String
    public var schemaVersion: UInt16

    public init(type: String, schemaVersion: UInt16) {
        self.type = type
        self.schemaVersion = schemaVersion
    }

    public var description: String { "\(type) v\(schemaVersion)" }
}

/// A catalog's payload types, written as an array literal and looked up by wire name in O(1).
public struct PayloadTypes<Event: Sendable>: Sendable, ExpressibleByArrayLiteral {
    public let all: [PayloadType<Event>]
    private let byWireName: [WireName: PayloadType<Event>]

    public init(arrayLiteral types: PayloadType<Event>...) {
        all = types
        // A wire name registered twice keeps its first registration; `CatalogCheck` reports it.
        byWireName = Dictionary(types.map { ($0.wireName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public subscript(wireName: WireName) -> PayloadType<Event>? { byWireName[wireName] }

    /// The newest version of each type: what the catalog writes.
    public var current: [PayloadType<Event>] {
        all.filter { type in !all.contains { $0.typeName == type.typeName && $0.schemaVersion > type.schemaVersion } }
    }
}

/// A catalog whose events are exactly the payloads in `payloadTypes`, one enum case each: the one
/// list of what can be in the log. Decoding looks types up in it, and encoding refuses an event
/// whose type is not in it, so nothing is ever written that could not be read back. An older schema
/// version stays registered, with the upcast that reads it as the current case.
public protocol PayloadCatalog: EventCatalog {
    static var payloadTypes: PayloadTypes<Event> { get }
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
        guard let registered = payloadTypes[WireName(type: type, schemaVersion: schemaVersion)] else {
            throw PayloadCatalogFailure.unknownType(type, schemaVersion: schemaVersion)
        }
        return try registered.decode(payload, decoder)
    }

    private static func encoded<P: EventPayload>(_ payload: P, with encoder: JSONEncoder) throws -> EncodedEvent {
        guard let registered = payloadTypes[WireName(type: P.typeName, schemaVersion: P.schemaVersion)], registered.type == P.self else {
            throw PayloadCatalogFailure.unregistered(P.typeName)
        }
        return EncodedEvent(type: P.typeName, schemaVersion: P.schemaVersion, payload: try encoder.encode(payload))
    }
}
