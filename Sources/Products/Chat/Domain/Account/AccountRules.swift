import Foundation

/// What an account must be: Django's user model's limits, and an address that could receive mail.
public enum AccountRules {
    /// Lowercased, trimmed and in Unicode's compatibility composition (NFKC, as Django normalises
    /// usernames): addresses are compared without case, as the Django app's login does, and one
    /// that looks the same however a keyboard composed it (`ü` or `u` + `¨`, full-width letters)
    /// is one address.
    public static func email(_ raw: String) throws(ChatDomainError) -> String {
        // Composed first: NFKC makes capitals of some letters (𝐀, ℂ) that lower case then folds.
        let email = raw.trimmingWhitespace.precomposedStringWithCompatibilityMapping.lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(where: { $0.isWhitespace })
        else { throw .invalid(field: "email", reason: "must be an email address such as user@example.com") }
        return email
    }

    /// How an account recorded before `email` composed addresses may hold this one: lowercased and
    /// trimmed as typed, or canonically decomposed (`u` + `¨`). Empty for an ASCII address.
    public static func uncomposedEmails(_ raw: String) -> [String] {
        // Compared as bytes: Swift's `==` holds `ü` and `u` + `¨` equal, the log's stream names do not.
        let typed = raw.trimmingWhitespace.lowercased()
        let composed = (try? email(raw)).map { Array($0.utf8) }
        return [typed, typed.decomposedStringWithCanonicalMapping].reduce(into: []) { forms, form in
            if Array(form.utf8) != composed, !forms.contains(where: { $0.utf8.elementsEqual(form.utf8) }) { forms.append(form) }
        }
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
