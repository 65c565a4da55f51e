import _CryptoExtras
import Crypto
import Foundation

/// Passwords as Django stores them: `pbkdf2_sha256$<iterations>$<salt>$<base64 hash>`, PBKDF2 with
/// HMAC-SHA256 and a 32-byte key, so accounts exported from the Django app log in here unchanged.
/// New hashes use `iterations` (OWASP's figure for PBKDF2-HMAC-SHA256 is 600,000); a stored hash is
/// checked with the count it records. The comparison takes the same time wherever the bytes differ.
public struct DjangoPassword: Sendable {
    public static let owaspIterations = 600_000
    public static let algorithm = "pbkdf2_sha256"
    public let iterations: Int

    public init(iterations: Int = DjangoPassword.owaspIterations) {
        self.iterations = iterations
    }

    /// A new hash of `password` under a fresh 22-character salt, as Django makes them.
    public func hash(_ password: String) throws -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        let salt = String((0..<22).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        return try Self.encode(password, salt: salt, iterations: iterations)
    }

    public static func encode(_ password: String, salt: String, iterations: Int) throws -> String {
        "\(algorithm)$\(iterations)$\(salt)$\(try derive(password, salt: salt, iterations: iterations).base64EncodedString())"
    }

    /// Whether `password` is the one `encoded` was made from. Anything not a well-formed
    /// `pbkdf2_sha256` hash (another hasher's, an unusable `!…` one) matches nothing.
    public static func verify(_ password: String, against encoded: String) -> Bool {
        guard let stored = Stored(encoded), let derived = try? derive(password, salt: stored.salt, iterations: stored.iterations) else { return false }
        return zip(derived, stored.hash).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Whether a hash is one `verify` can check, for an import to refuse the others up front.
    public static func isSupported(_ encoded: String) -> Bool {
        iterations(of: encoded) != nil
    }

    /// The iteration count a hash `verify` can check records; nil for any other.
    public static func iterations(of encoded: String) -> Int? {
        Stored(encoded)?.iterations
    }

    /// A well-formed `pbkdf2_sha256$<iterations>$<salt>$<base64 hash>`, its parts read.
    private struct Stored {
        let iterations: Int
        let salt: String
        let hash: Data

        init?(_ encoded: String) {
            let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == DjangoPassword.algorithm, let iterations = Int(parts[1]), (1...10_000_000).contains(iterations),
                  let hash = Data(base64Encoded: String(parts[3])), hash.count == 32
            else { return nil }
            (self.iterations, salt, self.hash) = (iterations, String(parts[2]), hash)
        }
    }

    private static func derive(_ password: String, salt: String, iterations: Int) throws -> Data {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Data(password.utf8), salt: Data(salt.utf8), using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: iterations
        )
        return key.withUnsafeBytes { Data($0) }
    }
}
