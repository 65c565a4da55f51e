#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a `Host` value is what RFC 9110 §7.2 allows: `uri-host [":" port]` (RFC 3986), or empty.
/// A value that is not (`a, b`, a path, user info, spaces) is refused with the request
/// (`BelowRouterAnswers`): two parties reading it differently is how a request reaches the wrong place.
/// A comma, which RFC 3986 lets into a registered name but no DNS name holds, is refused too: it is
/// how two `Host` lines read once joined.
enum HostValue {
    /// Read in place: this runs on every request, and a copy of the value would be an allocation each time.
    static func isValid(_ value: String) -> Bool {
        var value = value
        return value.withUTF8(isValid)
    }

    private static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return true }
        var hostEnd = bytes.count
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), isIPLiteral(bytes[1..<close]) else { return false }
            hostEnd = close + 1
        } else if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
            hostEnd = colon
        }
        let port = bytes[hostEnd...]
        guard port.isEmpty || (port.first == UInt8(ascii: ":") && port.dropFirst().allSatisfy(isDigit)) else { return false }
        return bytes[0] == UInt8(ascii: "[") || (hostEnd > 0 && isRegisteredName(bytes[..<hostEnd]))
    }

    /// Unreserved characters, sub-delimiters but the comma, and `%` with two hex digits.
    private static func isRegisteredName(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var index = name.startIndex
        while index < name.endIndex {
            let byte = name[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < name.endIndex, isHexDigit(name[index + 1]), isHexDigit(name[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isLetterOrDigit(byte) || "-._~!$&'()*+;=".utf8.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    /// An IPv6 address (hex digits, colons, and dots for an IPv4 tail) or `v<hex>.<name>` (IPvFuture).
    private static func isIPLiteral(_ literal: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        if literal.first == UInt8(ascii: "v") || literal.first == UInt8(ascii: "V") {
            guard let dot = literal.firstIndex(of: UInt8(ascii: ".")), dot > literal.startIndex + 1, dot + 1 < literal.endIndex else { return false }
            return literal[(literal.startIndex + 1)..<dot].allSatisfy(isHexDigit)
                && literal[(dot + 1)...].allSatisfy { isLetterOrDigit($0) || "-._~!$&'()*+,;=:".utf8.contains($0) }
        }
        return isIPv6Address(literal)
    }

    /// As the C library reads an address (`inet_pton`), so `[:::::]` or `[1:2]` is not one.
    private static func isIPv6Address(_ literal: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard literal.count <= 45 else { return false } // INET6_ADDRSTRLEN − 1: the longest, with an IPv4 tail
        var text = Array(literal)
        text.append(0)
        var address = in6_addr()
        return text.withUnsafeBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { inet_pton(AF_INET6, $0.baseAddress, &address) == 1 }
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
