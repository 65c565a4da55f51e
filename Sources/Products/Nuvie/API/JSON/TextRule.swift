import Hummingbird

/// Text a client sends may not hold control characters other than tab, line feed and carriage
/// return: SQLite reads text up to its first NUL, so a stored NUL would come back cut short, and no
/// field of the app means anything by the others. Refused with a 400 before anything is recorded.
enum TextRule {
    static func check(_ text: String, field: String) throws {
        guard let bad = text.unicodeScalars.first(where: isForbidden) else { return }
        throw APIError.validation("\(field) must not contain control characters (found U+\(hex(bad.value)))", field: field)
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F: true
        default: false
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension Request {
    /// A query parameter's text, checked by `TextRule`; nil when absent.
    func queryText(_ name: String) throws -> String? {
        guard let raw = uri.queryParameters[name[...]] else { return nil }
        let text = String(raw)
        try TextRule.check(text, field: name)
        return text
    }
}
