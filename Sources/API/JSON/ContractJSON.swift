import Foundation

/// The contract's JSON, configured once: snake_case keys, UTC timestamps like
/// `2024-01-15T10:30:00Z` (no fractional seconds), `null` written for absent optionals.
public enum ContractJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    /// Parses a contract timestamp; nil for anything else.
    public static func date(_ text: String) -> Date? {
        guard text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil else { return nil }
        return try? Date(text, strategy: .iso8601)
    }

    public static func timestamp(epochSeconds: Int64) -> String {
        timestamp(Date(timeIntervalSince1970: TimeInterval(epochSeconds)))
    }
}

/// An optional that encodes as an explicit `null` instead of being left out.
@propertyWrapper
public struct Nullable<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension Nullable: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

/// Rounds for display without changing what is stored (averages, scores).
func rounded(_ value: Double, places: Int = 2) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
}
