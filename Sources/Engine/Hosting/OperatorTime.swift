import Foundation
import HTTPServing

/// Times as operators type them: `2024-01-15T10:30:00Z` or a UTC date `2024-01-15` (its midnight).
public enum OperatorTime {
    public static func parse(_ text: String) -> Date? {
        if let midnight = UTCTimestamp.dayStart(text) { return Date(timeIntervalSince1970: TimeInterval(midnight)) }
        guard UTCTimestamp.startsWithRealDayAndTime(text), hasZoneAndNothingAfter(text.utf8.dropFirst(19)) else { return nil }
        return try? Date(text, strategy: .iso8601)
    }

    /// What may follow `2024-01-15T10:30:00`: fractional seconds, then `Z` or `±HH:MM`, and nothing
    /// more (Foundation's ISO 8601 parser reads a time off the front of `…Zgarbage`).
    private static func hasZoneAndNothingAfter(_ tail: Substring.UTF8View) -> Bool {
        let digit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        var rest = tail[...]
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            let digits = rest.prefix(while: digit).count
            guard (1...9).contains(digits) else { return false }
            rest = rest.dropFirst(digits)
        }
        if rest.elementsEqual("Z".utf8) { return true }
        let zone = Array(rest)
        return zone.count == 6 && [UInt8(ascii: "+"), UInt8(ascii: "-")].contains(zone[0]) && zone[3] == UInt8(ascii: ":")
            && [1, 2, 4, 5].allSatisfy { digit(zone[$0]) }
    }
}

extension OperatorTime {
    public struct Invalid: Error, CustomStringConvertible {
        public var text: String
        public var description: String { "\(text) is not a time like 2024-01-15T10:30:00Z or a date like 2024-01-15" }
    }

    /// `parse` for a command-line argument: a clear error instead of nil.
    public static func argument(_ text: String) throws -> Date {
        guard let date = parse(text) else { throw Invalid(text: text) }
        return date
    }
}
