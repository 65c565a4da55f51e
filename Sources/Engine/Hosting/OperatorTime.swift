import Foundation
import HTTPServing

/// Times as operators type them: `2024-01-15T10:30:00Z` or a UTC date `2024-01-15` (its midnight).
public enum OperatorTime {
    public static func parse(_ text: String) -> Date? {
        if let midnight = UTCTimestamp.dayStart(text) { return Date(timeIntervalSince1970: TimeInterval(midnight)) }
        // Foundation's ISO 8601 parser reads a time off the front of `…Zgarbage`: what follows the
        // seconds must be fractions, then `Z` or `±HH:MM`, and nothing more.
        guard UTCTimestamp.startsWithRealDayAndTime(text),
              String(text.dropFirst(19)).wholeMatch(of: /(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})/) != nil else { return nil }
        return try? Date(text, strategy: .iso8601)
    }

    /// `parse` as an upper bound ("at or before"): a time is the last instant of the precision it is
    /// written to, so `…T10:30:00Z` is the whole of that second (events are recorded to the
    /// microsecond, and audits show them to the second: a time copied from one includes its event).
    /// A date stays its midnight.
    public static func parseThrough(_ text: String) -> Date? {
        guard let start = parse(text) else { return nil }
        guard UTCTimestamp.dayStart(text) == nil else { return start }
        let digits = text.dropFirst(19).prefix { $0 == "." || $0.isNumber }.dropFirst().count
        guard digits <= 6 else { return start }
        // Half a microsecond short of the next unit: parsed fractions and recorded microseconds, both
        // doubles, differ in their last bits.
        return start + (pow(10, Double(-digits)) - 0.5e-6)
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

    /// `parseThrough` for a command-line argument.
    public static func argumentThrough(_ text: String) throws -> Date {
        guard let date = parseThrough(text) else { throw Invalid(text: text) }
        return date
    }
}
