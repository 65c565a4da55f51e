/// Text an event may hold: no control characters other than tab, line feed and carriage return.
/// SQLite reads text up to its first NUL, so a stored NUL would come back cut short, and no field of
/// any product means anything by the others. Products refuse such text before anything is recorded.
public enum StorableText {
    /// The first refused character as `U+0000`, or nil when the text may be stored.
    public static func firstRefusedCharacter(in text: String) -> String? {
        guard let bad = text.unicodeScalars.first(where: isRefused) else { return nil }
        let digits = String(bad.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `text` with each refused character as U+FFFD: for text from outside that nobody can be asked
    /// to send again (a model's reply), so that what is answered is what is stored.
    public static func replacingRefused(in text: String) -> String {
        guard text.unicodeScalars.contains(where: isRefused) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isRefused(scalar) ? "\u{FFFD}" : scalar) }
        return String(scalars)
    }

    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F: true
        default: false
        }
    }
}
