/// Instants written as ISO 8601 in UTC, `YYYY-MM-DDTHH:MM:SS`, then a fraction of as many digits as
/// each contract wants (none, `.123`, `.123456`) and its zone suffix (`Z`, `+00:00`). Integer
/// arithmetic into bytes, no formatter: a feed page writes twenty of these, and a format style cost
/// more than the page's database read.
public enum UTCTimestamp {
    /// The first and last second this format can write: 0000-01-01T00:00:00 and 9999-12-31T23:59:59.
    public static let writableSeconds: ClosedRange<Int64> = days(year: 0, month: 1, day: 1) * 86_400...days(year: 10_000, month: 1, day: 1) * 86_400 - 1

    /// `value` counted in `1/unitsPerSecond` since 1970 (`unitsPerSecond` 1 or a power of ten, whose
    /// digits are the fraction's), the proleptic Gregorian calendar. Instants before year 0 or after
    /// 9999 are written as the nearest writable one: a client's out-of-range date must never trap.
    public static func format(_ value: Int64, unitsPerSecond: Int64, suffix: String) -> String {
        let unclamped = floorDivide(value, unitsPerSecond)
        let seconds = min(max(unclamped, writableSeconds.lowerBound), writableSeconds.upperBound)
        let value = seconds == unclamped ? value : seconds * unitsPerSecond
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(days: days)
        var text = [UInt8]()
        text.reserveCapacity(32)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        text.append(UInt8(ascii: "-"))
        digits(month, 2)
        text.append(UInt8(ascii: "-"))
        digits(day, 2)
        text.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3_600, 2)
        text.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        text.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        let fractionDigits = String(unitsPerSecond).utf8.count - 1
        if fractionDigits > 0 {
            text.append(UInt8(ascii: "."))
            digits(value - seconds * unitsPerSecond, fractionDigits)
        }
        text.append(contentsOf: suffix.utf8)
        return String(decoding: text, as: UTF8.self)
    }

    /// `YYYY-MM-DD` (a real day of years 0000–9999) as the epoch second its UTC day starts; nil for
    /// anything else.
    public static func dayStart(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, let (year, month, day) = realDay(bytes) else { return nil }
        return days(year: year, month: month, day: day) * 86_400
    }

    /// The real day the first ten bytes write as `YYYY-MM-DD`; nil for anything else.
    private static func realDay(_ bytes: [UInt8]) -> (year: Int64, month: Int64, day: Int64)? {
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = decimal(bytes[0..<4]), let month = decimal(bytes[5..<7]), let day = decimal(bytes[8..<10]),
              isDate(year: year, month: month, day: day)
        else { return nil }
        return (year, month, day)
    }

    /// Whether `text` starts with a real day, `YYYY-MM-DD`, and, when a time follows it, a real time
    /// of day, `THH:MM:SS`: what Foundation's ISO 8601 parsing does not check (it reads 2025-02-30 as
    /// 2 March, 24:00 as the next day, and one-digit months).
    public static func startsWithRealDayAndTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(19))
        guard realDay(bytes) != nil else { return false }
        return bytes.count == 10 || secondOfDay(bytes) != nil
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, a real day and time of day, as seconds since 1970; nil for anything else.
    public static func epochSecond(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[19] == UInt8(ascii: "Z") else { return nil }
        return epochSecond(ofFirst19: bytes)
    }

    /// The instant bytes 0–18 write as `YYYY-MM-DDTHH:MM:SS` (a real day and time of day, read as
    /// UTC), in seconds since 1970; nil for anything else. What follows is the caller's to read.
    public static func epochSecond(ofFirst19 bytes: [UInt8]) -> Int64? {
        guard let (year, month, day) = realDay(bytes), let second = secondOfDay(bytes) else { return nil }
        return days(year: year, month: month, day: day) * 86_400 + second
    }

    /// The second of the day that bytes 10–18 write as `THH:MM:SS`, a real time of day; nil for anything else.
    private static func secondOfDay(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count >= 19, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let hour = decimal(bytes[11..<13]), let minute = decimal(bytes[14..<16]), let second = decimal(bytes[17..<19]),
              hour < 24, minute < 60, second < 60
        else { return nil }
        return hour * 3_600 + minute * 60 + second
    }

    /// Whether `year`-`month`-`day` is a day of the proleptic Gregorian calendar, years 0–9999.
    public static func isDate(year: Int64, month: Int64, day: Int64) -> Bool {
        (0...9_999).contains(year) && (1...12).contains(month) && (1...daysIn(month: month, year: year)).contains(day)
    }

    /// Days since 1970-01-01 from a civil date: H. Hinnant, "chrono-compatible low-level date algorithms".
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// ASCII digits only, as a number; nil for anything else.
    public static func decimal(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    /// Days since 1970-01-01 to a civil date: H. Hinnant, "chrono-compatible low-level date algorithms".
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `a / b` rounded toward negative infinity, for `b > 0`; total over every `Int64`.
    public static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return a % b != 0 && a < 0 ? quotient - 1 : quotient
    }
}
