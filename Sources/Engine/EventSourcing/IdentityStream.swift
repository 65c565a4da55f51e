import Crypto
import Foundation

/// A sign-in identity (an Apple subject, a dev name…) as a product knows it, and the stream that
/// records who claimed it. The stream's name holds a SHA-256 of the subject, not the subject: stream
/// names are not sealed, and an identity-provider subject is personal data.
public struct SignInIdentity: Hashable, Sendable {
    public var provider: String
    public var subject: String

    public init(provider: String, subject: String) {
        self.provider = provider
        self.subject = subject
    }

    public var stream: String {
        let digest = SHA256.hash(data: Data("\(provider)\u{0}\(subject)".utf8))
        return "identity-\(provider)-" + digest.lowercaseHex
    }

    /// The stream's name in logs written before subjects were hashed; read, never written.
    public var legacyStream: String { "identity-\(provider)-\(subject)" }

    /// The name a stream gets when a log is sealed: a legacy identity stream's is its hashed one;
    /// any other stream's (a hashed identity stream's too) is unchanged.
    public static func sealedName(of stream: String) -> String {
        guard stream.hasPrefix("identity-") else { return stream }
        let rest = stream.dropFirst("identity-".count)
        guard let dash = rest.firstIndex(of: "-") else { return stream }
        let subject = rest[rest.index(after: dash)...]
        if subject.utf8.count == 64, subject.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) { return stream }
        return SignInIdentity(provider: String(rest[..<dash]), subject: String(subject)).stream
    }
}
