extension Sequence<UInt8> {
    /// Two lowercase hex digits a byte: a digest as stream names, file names and token hashes hold it.
    /// Written by hand because `String(format: "%02x")` costs microseconds a byte, and a sign-in
    /// hashes its identity on every request (BENCHMARKS.md).
    public var lowercaseHex: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)
