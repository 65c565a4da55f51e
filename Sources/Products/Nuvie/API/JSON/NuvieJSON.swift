import Foundation
import HTTPServing

/// The contract's JSON, configured once: snake_case keys, UTC timestamps like
/// `2024-01-15T10:30:00Z` (no fractional seconds), `null` written for absent optionals.
public enum NuvieJSON {
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
        timestamp(epochSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Parses a contract timestamp; nil for anything else.
    public static func date(_ text: String) -> Date? {
        UTCTimestamp.epochSecond(text).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` at UTC for years 0–9999.
    public static func timestamp(epochSeconds: Int64) -> String {
        UTCTimestamp.format(epochSeconds, unitsPerSecond: 1, suffix: "Z")
    }
}

/// Rounds for display without changing what is stored (averages, scores).
func rounded(_ value: Double, places: Int = 2) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
}
