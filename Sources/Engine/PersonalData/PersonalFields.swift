import Foundation

/// Personal values in events, sealed under their subject user's data key: the log stores
/// `pd1:` + base64(nonce, ciphertext, tag) (AES-GCM-256) in place of the value. `context`, bound to
/// the value but not stored, names where it was written (e.g. `review-written.text`), so a sealed
/// value moved into another field or event does not open. Once the user's key is destroyed the
/// value opens as nil: the field reads as absent, in the log, its copies and its backups alike.
public struct PersonalFields: Sendable {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notSealed(context: String)
        case unauthentic(userId: Int64, context: String)
        case noKey(userId: Int64, context: String)

        public var description: String {
            switch self {
            case .notSealed(let context): "\(context) is not a sealed personal value (\(PersonalFields.prefix)…)"
            case .unauthentic(let userId, let context):
                "\(context) does not open under user \(userId)'s key: altered, or sealed for another user or field"
            case .noKey(let userId, let context):
                "\(context) is sealed for user \(userId), who has no data key and was not erased: is the key store older than the log?"
            }
        }
    }

    public static let prefix = "pd1:"

    public let keys: KeyStore

    public init(keys: KeyStore) {
        self.keys = keys
    }

    /// Creates the user's key on first use; throws `KeyStore.Failure.keyDestroyed` for an erased user.
    public func seal(_ plaintext: String, for userId: Int64, context: String) throws -> String {
        guard let key = try keys.key(for: userId, creating: true) else { throw KeyStore.Failure.keyDestroyed(userId: userId) }
        let sealed = try SealedBytes.seal(Data(plaintext.utf8), with: key, authenticating: Self.prefix + context)
        return Self.prefix + sealed.base64EncodedString()
    }

    /// The value, or nil when the user's key was destroyed. Throws when `sealed` is not in the sealed
    /// form, does not authenticate (altered, or another user's or context's), or its user has neither
    /// a key nor an erasure.
    public func open(_ sealed: String, for userId: Int64, context: String) throws -> String? {
        guard sealed.hasPrefix(Self.prefix), let bytes = Data(base64Encoded: String(sealed.dropFirst(Self.prefix.count))) else {
            throw Failure.notSealed(context: context)
        }
        switch try keys.lookup(userId, creating: false) {
        case .destroyed:
            return nil
        case .absent:
            throw Failure.noKey(userId: userId, context: context)
        case .live(let key):
            do {
                let plaintext = try SealedBytes.open(bytes, with: key, authenticating: Self.prefix + context)
                return String(decoding: plaintext, as: UTF8.self)
            } catch {
                throw Failure.unauthentic(userId: userId, context: context)
            }
        }
    }
}
