import EventSourcing
import Foundation

/// Personal values in events, sealed under their owner's data key: the log stores `pd1:` +
/// base64(nonce, ciphertext, tag) (AES-GCM-256) in place of the value, with the field's name bound
/// to it but not stored, so a sealed value moved into another field does not open. Once the owner's
/// key is destroyed the value opens as nil: the field reads as absent, in the log, its copies and
/// its backups alike.
///
/// Sealing is deterministic (`SealedBytes.sealDeterministically`): the same value of the same user in
/// the same field seals to the same bytes, so an event retried under its idempotency key, or imported
/// again, is the same event to the log, which recognises repeats by their bytes.
public struct KeyStoreCipher: PersonalDataCipher {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notSealed(field: String)
        case unauthentic(userId: Int64, field: String)
        case noKey(userId: Int64, field: String)

        public var description: String {
            switch self {
            case .notSealed(let field): "\(field) starts as a sealed personal value (\(KeyStoreCipher.prefix)…) and is not one"
            case .unauthentic(let userId, let field):
                "\(field) does not open under user \(userId)'s key: altered, or sealed for another user or field"
            case .noKey(let userId, let field):
                "\(field) is sealed for user \(userId), who has no data key and was not erased: is the key store older than the log?"
            }
        }
    }

    public static let prefix = "pd1:"

    public let keys: KeyStore

    public init(keys: KeyStore) {
        self.keys = keys
    }

    /// Creates the owner's key on first use; throws `KeyStore.Failure.keyDestroyed` for an erased user.
    public func seal(_ value: String, owner: Int64, field: String) throws -> String {
        guard let key = try keys.key(for: owner, creating: true) else { throw KeyStore.Failure.keyDestroyed(userId: owner) }
        let sealed = try SealedBytes.sealDeterministically(Data(value.utf8), with: key, authenticating: Self.prefix + field)
        return Self.prefix + sealed.base64EncodedString()
    }

    /// The value, or nil when the owner's key was destroyed. A value without the prefix was written
    /// in clear before fields were sealed, and reads as itself until its owner is erased. Throws when
    /// a sealed value does not authenticate (altered, or another user's or field's), or its owner has
    /// neither a key nor an erasure.
    public func open(_ stored: String, owner: Int64, field: String) throws -> String? {
        guard stored.hasPrefix(Self.prefix) else { return try keys.isDestroyed(owner) ? nil : stored }
        guard let bytes = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))) else { throw Failure.notSealed(field: field) }
        switch try keys.lookup(owner, creating: false) {
        case .destroyed:
            return nil
        case .absent:
            throw Failure.noKey(userId: owner, field: field)
        case .live(let key):
            do {
                return String(decoding: try SealedBytes.open(bytes, with: key, authenticating: Self.prefix + field), as: UTF8.self)
            } catch {
                throw Failure.unauthentic(userId: owner, field: field)
            }
        }
    }

    public func prepareKeys(for owners: Set<Int64>) async throws {
        try await keys.prepareKeys(for: owners)
    }

    public func isErased(_ user: Int64) throws -> Bool {
        try keys.isDestroyed(user)
    }

    public func highestKnownUser() throws -> Int64 {
        try keys.highestKnownUser()
    }

    public var keyDestructions: UInt64 {
        keys.destructions
    }

    public func onKeysDestroyed(_ action: @escaping @Sendable (UInt64) -> Void) {
        keys.onKeysDestroyed { action($0.count) }
    }
}
