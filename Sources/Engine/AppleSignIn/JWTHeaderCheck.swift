import Foundation
import JWTKit

/// What a token's header must say before its signature is even checked (RFC 8725 §2.1, §3.1): the
/// algorithm of the key it names, never whatever algorithm the header asks for.
public struct JWTHeaderCheck: Sendable {
    /// The algorithm each key signs with, by `kid`; the `nil` entry is for tokens that name no key.
    /// A token naming no key or an unknown one gets no fallback to whichever key comes first.
    let algorithms: [String?: String]

    public static func algorithm(_ algorithm: String) -> JWTHeaderCheck {
        JWTHeaderCheck(algorithms: [nil: algorithm])
    }

    /// Each key of the set with its declared `alg`, or the one its key type implies.
    static func keys(of jwks: JWKS) -> JWTHeaderCheck {
        var algorithms: [String?: String] = [:]
        for key in jwks.keys {
            guard let kid = key.keyIdentifier?.string else { continue }
            let implied: String? = switch key.keyType {
            case .rsa: "RS256"
            case .ecdsa: "ES256"
            default: nil
            }
            algorithms[kid] = key.algorithm?.rawValue ?? implied
        }
        return JWTHeaderCheck(algorithms: algorithms)
    }

    /// Whether `token`'s header names a key this set does not have: one published since it was loaded.
    func namesUnknownKey(_ token: String) -> Bool {
        guard let header = Self.header(of: token), let kid = header.kid else { return false }
        return algorithms[kid] == nil
    }

    public func accepts(_ token: String) -> Bool {
        // `crit` names extensions the signer requires us to understand; we understand none.
        guard Self.isCompact(token), let header = Self.header(of: token), header.crit == nil, let expected = algorithms[header.kid] else { return false }
        return header.alg == expected
    }

    /// Three parts of unpadded base64url, each as an encoder writes it (RFC 7515 §7.1). Decoders pass
    /// over padding and the unused low bits of a last character, so without this `…4`, `…5` and
    /// `…4=` were one signature: one token written four ways, which a deny-list or a cache by token
    /// would take for four.
    static func isCompact(_ token: String) -> Bool {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { part in
            guard part.allSatisfy({ base64URLValue($0) != nil }) else { return false }
            let last = part.last.flatMap(base64URLValue) ?? 0
            switch part.count % 4 {
            case 0: return true
            case 2: return last & 0x0F == 0
            case 3: return last & 0x03 == 0
            default: return false
            }
        }
    }

    private static func base64URLValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    private static func header(of token: String) -> JWTHeader? {
        guard let encoded = token.split(separator: ".", omittingEmptySubsequences: false).first,
              let data = Data(base64URLEncoded: String(encoded))
        else { return nil }
        return try? JSONDecoder().decode(JWTHeader.self, from: data)
    }
}

extension Data {
    /// Base64url without padding (RFC 7515 §2), as JWTs carry their parts.
    init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
