import Crypto
import Foundation

/// 64-bit SimHash over a text's word pairs: near-identical texts (a syndicated copy with a changed
/// word or two) differ in few bits, unrelated ones in about half.
public enum SimHash {
    public static func of(_ terms: [String]) -> UInt64 {
        let shingles = terms.count >= 2 ? zip(terms, terms.dropFirst()).map { "\($0) \($1)" } : terms
        var weights = [Int](repeating: 0, count: 64)
        for shingle in shingles {
            let digest = Array(SHA256.hash(data: Data(shingle.utf8)).prefix(8))
            let bits = digest.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            for bit in 0..<64 { weights[bit] += bits >> UInt64(bit) & 1 == 1 ? 1 : -1 }
        }
        return (0..<64).reduce(UInt64(0)) { hash, bit in weights[bit] > 0 ? hash | 1 << UInt64(bit) : hash }
    }

    public static func distance(_ a: UInt64, _ b: UInt64) -> Int {
        (a ^ b).nonzeroBitCount
    }

    /// At most this many differing bits: the same text.
    public static let nearDuplicate = 3
}
