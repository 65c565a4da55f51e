import Foundation

/// Accounts as Django's `manage.py dumpdata auth.user` writes them:
/// `[{"model": "auth.user", "pk": 1, "fields": {"password": "pbkdf2_sha256$…", "email": …,
/// "username": …, "first_name": …, "last_name": …, "date_joined": "2025-07-30T17:42:33.835Z", …}}]`.
/// Other models in the file are skipped, and so are inactive users.
public struct DjangoUserExport: Sendable {
    public struct Account: Sendable, Equatable {
        public var email: String
        public var passwordHash: String
        public var username: String?
        public var firstName: String?
        public var lastName: String?
        public var dateJoined: Date?
    }

    public var accounts: [Account]

    struct Entry: Decodable {
        struct Fields: Decodable {
            var password: String?
            var email: String?
            var username: String?
            var first_name: String?
            var last_name: String?
            var date_joined: String?
            var is_active: Bool?
        }
        var model: String
        var fields: Fields
    }

    public init(json: Data) throws {
        let entries = try JSONDecoder().decode([Entry].self, from: json)
        accounts = entries.compactMap { entry in
            guard entry.model == "auth.user", entry.fields.is_active != false, let email = entry.fields.email, !email.isEmpty,
                  let password = entry.fields.password
            else { return nil }
            return Account(
                email: email, passwordHash: password, username: entry.fields.username, firstName: entry.fields.first_name,
                lastName: entry.fields.last_name, dateJoined: entry.fields.date_joined.flatMap(Self.date)
            )
        }
    }

    /// Django writes `2025-07-30T17:42:33.835Z` or `…+00:00`, with or without fractions.
    static func date(_ text: String) -> Date? {
        let withFractions = ISO8601DateFormatter()
        withFractions.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return withFractions.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
