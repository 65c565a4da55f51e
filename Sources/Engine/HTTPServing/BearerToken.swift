/// The token of an `Authorization: Bearer <token>` header: the scheme in any case, blanks around the
/// token ignored; nil for anything else.
public enum BearerToken {
    /// Byte-wise: Foundation's `trimmingCharacters` bridged through `NSString` cost a tenth of a
    /// cheap read request (BENCHMARKS.md).
    public static func of(_ header: String) -> String? {
        let bytes = Array(header.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count, bytes[scheme.count] == UInt8(ascii: " "),
              zip(bytes, scheme).allSatisfy({ $0 == $1 || $0 == $1 - 0x20 })
        else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes[(scheme.count + 1)...].firstIndex(where: { !isBlank($0) }),
              let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return nil }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
