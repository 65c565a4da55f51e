/// Whether a `Host` value is what RFC 9110 §7.2 allows: `uri-host [":" port]` (RFC 3986), or empty.
/// A value that is not (`a, b`, a path, spaces) is refused with the request (`BelowRouterAnswers`):
/// two parties reading it differently is how a request reaches the wrong place.
enum HostValue {
    static func isValid(_ value: String) -> Bool {
        var host = Substring(value)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let literal = host[host.index(after: host.startIndex)..<close]
            host = host[host.index(after: close)...]
            return !literal.isEmpty && literal.utf8.allSatisfy { isRegNameByte($0) || $0 == UInt8(ascii: ":") }
                && (host.isEmpty || isPort(host))
        }
        if let colon = host.lastIndex(of: ":") {
            guard isPort(host[colon...]) else { return false }
            host = host[..<colon]
        }
        return host.utf8.allSatisfy(isRegNameByte)
    }

    /// `":" *DIGIT`.
    private static func isPort(_ text: Substring) -> Bool {
        text.first == ":" && text.utf8.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// RFC 3986's unreserved, sub-delims and `%` (of pct-encoded).
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-._~!$&'()*+,;=%".utf8.contains(byte)
        }
    }
}
