/// Instants written as ISO 8601 in UTC, `YYYY-MM-DDTHH:MM:SS`, then a fraction of as many digits as
/// each contract wants (none, `.123`, `.123456`) and its zone suffix (`Z`, `+00:00`). Integer
/// arithmetic into bytes, no formatter: a feed page writes twenty of these, and a format style cost
/// more than the page's database read.
public enum UTCTimestamp {
    /// `value` counted in `1/unitsPerSecond` since 1970 (`unitsPerSecond` 1 or a power of ten, whose
    /// digits are the fraction's), years 0–9999, the proleptic Gregorian calendar.
    public static func format(_ value: Int64, unitsPerSecond: Int64, suffix: String) -> String {
        let seconds = floorDivide(value, unitsPerSecond)
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

    public static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }
}
