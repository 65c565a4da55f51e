import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562): Unix milliseconds in the first 48 bits, random bits after.
    ///
    /// The log indexes event ids by their bytes, so ids minted one after another land beside each
    /// other at the end of that index instead of on a random page each: a commit of 64 appends then
    /// dirties a few index pages rather than 64 (see BENCHMARKS.md, durable appends).
    public static func timeOrdered(at date: Date = Date()) -> UUID {
        var random = SystemRandomNumberGenerator()
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        let high = random.next() as UInt64
        let low = random.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(index))) }
        for index in 6..<16 { bytes[index] = UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (8 * UInt64(index % 8))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
