import Foundation
import HTTPServing

/// The contract's instants: `2025-12-31T00:00:00.000Z`, UTC with milliseconds.
enum Timestamp {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for epoch milliseconds, years 0–9999.
    static func format(milliseconds: Int64) -> String {
        UTCTimestamp.format(milliseconds, unitsPerSecond: 1_000, suffix: "Z")
    }

    static func format(_ date: Date) -> String {
        format(milliseconds: Int64((date.timeIntervalSince1970 * 1_000).rounded(.down)))
    }

    /// An ISO 8601 instant (`YYYY-MM-DDTHH:MM:SS`, optionally `.` and 1–9 digits, then `Z` or
    /// `±HH:MM`) as the smallest whole millisecond at or after it; nil for anything else. At or after:
    /// `updatedAt < instant` is then `updatedAt < result` for whole-millisecond stamps.
    static func millisecondsCeiling(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int64? {
            guard index + count <= bytes.count, let value = UTCTimestamp.decimal(bytes[index..<index + count]) else { return nil }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        // RFC 3339 allows a lower-case `t`; the engine's reading of the day and time takes `T`.
        var upper = Array(bytes.prefix(19))
        if upper.count == 19, upper[10] == UInt8(ascii: "t") { upper[10] = UInt8(ascii: "T") }
        guard let whole = UTCTimestamp.epochSecond(ofFirst19: upper) else { return nil }
        index = 19
        var nanoseconds: Int64 = 0
        if expect(".") {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]), index - start < 9 { index += 1 }
            let digits = index - start
            guard digits > 0 else { return nil }
            index = start
            guard let fraction = number(digits) else { return nil }
            nanoseconds = fraction * power10(9 - digits)
        }
        var offsetMinutes: Int64 = 0
        if !expect("Zz") {
            guard index < bytes.count else { return nil }
            let sign: Int64 = bytes[index] == UInt8(ascii: "+") ? 1 : bytes[index] == UInt8(ascii: "-") ? -1 : 0
            guard sign != 0 else { return nil }
            index += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        }
        guard index == bytes.count else { return nil }
        let seconds = whole - offsetMinutes * 60
        return seconds * 1_000 + (nanoseconds + 999_999) / 1_000_000
    }

    private static func power10(_ exponent: Int) -> Int64 {
        (0..<exponent).reduce(1) { result, _ in result * 10 }
    }
}
