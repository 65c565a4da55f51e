import EventSourcing
import Hummingbird

/// Text a client sends is refused with a 400 before anything is recorded when it holds a control
/// character other than tab, line feed and carriage return (`StorableText`).
enum TextRule {
    static func check(_ text: String, field: String) throws {
        guard let bad = StorableText.firstRefusedCharacter(in: text) else { return }
        throw NuvieAPIError.validation("\(field) must not contain control characters (found \(bad))", field: field)
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
