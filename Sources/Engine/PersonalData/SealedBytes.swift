import Crypto
import Foundation

/// AES-GCM-256 in the one layout this module stores: nonce (12 bytes), ciphertext, tag (16 bytes),
/// with `authenticating` bound to it but not stored, so opening under any other value fails.
enum SealedBytes {
    static func seal(_ plaintext: some DataProtocol, with key: SymmetricKey, authenticating: String) throws -> Data {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Data(authenticating.utf8))
        return Data(box.nonce) + box.ciphertext + box.tag
    }

    /// Throws when `sealed` is too short to be a box, or does not authenticate under `key` and `authenticating`.
    static func open(_ sealed: Data, with key: SymmetricKey, authenticating: String) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: Data(authenticating.utf8))
    }
}
