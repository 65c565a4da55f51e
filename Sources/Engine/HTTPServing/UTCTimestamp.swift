/// Instants written as ISO 8601 in UTC, `YYYY-MM-DDTHH:MM:SS`, then a fraction of a given number of
/// digits and a zone suffix of each contract's choosing (`.123Z`, `.123456+00:00`). Integer
/// arithmetic only: no formatter, no locale, no rounding.
public enum UTCTimestamp {
    /// `value` counted in `1/unitsPerSecond` since 1970 (`unitsPerSecond` a power of ten, its digits
    /// the fraction's), years 0–9999.
    public static func format(_ value: Int64, unitsPerSecond: Int64, suffix: String) -> String {
        let seconds = floorDivide(value, unitsPerSecond)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(days: days)
        let fractionDigits = String(unitsPerSecond).count - 1
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3_600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(value - seconds * unitsPerSecond, fractionDigits) + suffix
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

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
