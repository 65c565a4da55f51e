import HTTPTypes

extension HTTPFields {
    /// `Content-Type` is `application/json` in any case, with any parameters (`charset=utf-8`) and
    /// optional whitespace (RFC 9110's space and tab) around it. Compared byte by byte: Foundation's
    /// trimming and lowercasing were 2 % of a rating's time on the event loops (BENCHMARKS.md).
    public var declaresJSON: Bool {
        guard let contentType = self[.contentType] else { return false }
        let mediaType = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = mediaType.firstIndex(where: { !isSpace($0) }), let last = mediaType.lastIndex(where: { !isSpace($0) }) else {
            return false
        }
        return mediaType[first...last].elementsEqual("application/json".utf8) { byte, expected in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 == expected : byte == expected
        }
    }
}
