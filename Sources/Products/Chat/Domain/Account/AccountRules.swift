/// What an account must be: Django's user model's limits, and an address that could receive mail.
public enum AccountRules {
    /// Lowercased and trimmed: addresses are compared without case, as the Django app's login does.
    public static func email(_ raw: String) throws(ChatDomainError) -> String {
        let email = raw.trimmingWhitespace.lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(where: { $0.isWhitespace })
        else { throw .invalid(field: "email", reason: "must be an email address such as user@example.com") }
        return email
    }

    /// At least 8 characters, not only digits (Django's default validators, short of its list of
    /// common passwords); at most 4096, so a huge one cannot tie up the hashing.
    public static func password(_ raw: String) throws(ChatDomainError) {
        guard raw.count >= 8 else { throw .invalid(field: "password", reason: "must be at least 8 characters") }
        guard raw.utf8.count <= 4096 else { throw .invalid(field: "password", reason: "must be at most 4096 bytes") }
        guard !raw.allSatisfy(\.isNumber) else { throw .invalid(field: "password", reason: "cannot be entirely numeric") }
    }

    /// Django's `username`: up to 150 of letters, digits and `@.+-_`. When none is given, the email
    /// with any other character as `_`, cut at 150: a valid address must not fail as a bad username.
    public static func profile(username: String?, firstName: String?, lastName: String?, email: String) throws(ChatDomainError) -> ChatProfile {
        let username = username?.trimmingWhitespace
            ?? String(String(email.map { $0.isLetter || $0.isNumber || "@.+-_".contains($0) ? $0 : "_" }).prefix(150))
        guard (1...150).contains(username.count), username.allSatisfy({ $0.isLetter || $0.isNumber || "@.+-_".contains($0) }) else {
            throw .invalid(field: "username", reason: "must be 1–150 letters, digits and @ . + - _")
        }
        let first = firstName?.trimmingWhitespace ?? "", last = lastName?.trimmingWhitespace ?? ""
        guard first.count <= 150 else { throw .invalid(field: "first_name", reason: "must be at most 150 characters") }
        guard last.count <= 150 else { throw .invalid(field: "last_name", reason: "must be at most 150 characters") }
        return ChatProfile(username: username, firstName: first, lastName: last)
    }
}
