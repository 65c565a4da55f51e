/// What the chat product accepts, checked before anything is recorded.
public enum ChatRules {
    public static let defaultTone = "plain_clinical"
    public static let defaultLanguage = "en-US"
    public static let defaultTitle = "New Conversation"
    public static let maximumMessageCharacters = 32_000
    public static let maximumTitleCharacters = 255

    /// A tone in snake_case, as stored and shown: PascalCase is converted as the Django app does
    /// (`PlainClinical` → `plain_clinical`); an empty one is the default. At most 32 characters as sent.
    public static func tone(_ raw: String) throws(ChatDomainError) -> String {
        guard !raw.isEmpty else { return defaultTone }
        guard raw.utf8.count <= 32 else { throw .invalid(field: "tone", reason: "must be at most 32 characters") }
        var snake = ""
        for (index, character) in raw.enumerated() {
            if character.isUppercase, index > 0 { snake.append("_") }
            snake.append(contentsOf: character.lowercased())
        }
        guard let first = snake.utf8.first, (0x61...0x7A).contains(first),
              snake.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F })
        else { throw .invalid(field: "tone", reason: "must be a tone name such as plain_clinical or PlainClinical") }
        return snake
    }

    /// A language tag such as `en-US`.
    public static func language(_ raw: String) throws(ChatDomainError) -> String {
        guard (2...35).contains(raw.utf8.count),
              raw.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F })
        else { throw .invalid(field: "lang", reason: "must be a language tag such as en-US") }
        return raw
    }

    /// Trimmed; not empty.
    public static func message(_ raw: String) throws(ChatDomainError) -> String {
        let text = raw.trimmingWhitespace
        guard !text.isEmpty else { throw .invalid(field: "message", reason: "is empty: type a message") }
        guard text.count <= maximumMessageCharacters else {
            throw .invalid(field: "message", reason: "is longer than \(maximumMessageCharacters) characters")
        }
        return text
    }

    /// Trimmed; 1–255 characters.
    public static func title(_ raw: String) throws(ChatDomainError) -> String {
        let text = raw.trimmingWhitespace
        guard !text.isEmpty, text.count <= maximumTitleCharacters else {
            throw .invalid(field: "title", reason: "must be 1–\(maximumTitleCharacters) characters")
        }
        return text
    }

    /// A new session's title when the first message started it: the message's first line, cut at
    /// 60 characters.
    public static func title(from message: String) -> String {
        let line = message.split(whereSeparator: \.isNewline).first.map(String.init)?.trimmingWhitespace ?? ""
        guard !line.isEmpty else { return defaultTitle }
        return line.count <= 60 ? line : String(line.prefix(59)) + "…"
    }
}

extension String {
    var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}
