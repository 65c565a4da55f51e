import Crypto
import Foundation

/// AES-GCM-256 in the one layout this module stores: nonce (12 bytes), ciphertext, tag (16 bytes),
/// with `authenticating` bound to it but not stored, so opening under any other value fails.
enum SealedBytes {
    /// With a random nonce.
    static func seal(_ plaintext: some DataProtocol, with key: SymmetricKey, authenticating: String) throws -> Data {
        try seal(plaintext, with: key, authenticating: authenticating, nonce: AES.GCM.Nonce())
    }

    /// With a synthetic nonce (as SIV constructions derive theirs): an HMAC of `authenticating` and
    /// the plaintext under a key derived from `key`. The same plaintext sealed again in the same place
    /// gives the same bytes; two different plaintexts get different nonces, so no nonce is ever reused
    /// for another message. What it gives away: that two sealed values of one key and place are equal.
    static func sealDeterministically(_ plaintext: Data, with key: SymmetricKey, authenticating: String) throws -> Data {
        let nonceKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("pd1-synthetic-nonce".utf8), outputByteCount: 32)
        var message = Data(authenticating.utf8)
        message.append(0)
        message.append(plaintext)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: nonceKey)
        return try seal(plaintext, with: key, authenticating: authenticating, nonce: try AES.GCM.Nonce(data: Data(mac).prefix(12)))
    }

    /// Throws when `sealed` is too short to be a box, or does not authenticate under `key` and `authenticating`.
    static func open(_ sealed: Data, with key: SymmetricKey, authenticating: String) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: Data(authenticating.utf8))
    }

    private static func seal(_ plaintext: some DataProtocol, with key: SymmetricKey, authenticating: String, nonce: AES.GCM.Nonce) throws -> Data {
        let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: Data(authenticating.utf8))
        return Data(box.nonce) + box.ciphertext + box.tag
    }
}
