import Foundation

/// What registering a new user records: the identity claim and the user's first event.
public enum Registration {
    public static func decide(identity: Identity, userId: Int64, name: String?, email: String?) throws(NuvieDomainError) -> (IdentityClaimed, UserRegistered) {
        guard !identity.subject.isEmpty, identity.subject.utf8.count <= 255 else {
            throw .invalid(field: "user_identifier", reason: "must be 1–255 bytes")
        }
        let displayName = name.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        return (
            IdentityClaimed(identity: identity, userId: userId),
            UserRegistered(userId: userId, name: String((displayName ?? "User \(userId)").prefix(100)), email: email, avatarUrl: nil, provider: identity.provider)
        )
    }
}
