import Foundation

/// An address an app loads as an image (an avatar, a recipe's photo): an absolute `http` or `https`
/// URL, the scheme in any case, naming a host (a name whose labels are letters, ASCII digits,
/// underscores and inner hyphens, an IPv4 address, or a bracketed IPv6 one; a final dot allowed) and a
/// port it could be on, with no user info (`https://cdn.example@evil.example/` names evil.example),
/// no blank and no backslash (which browsers read as a slash, and so as another host).
public enum WebAddress {
    public static func isHTTP(_ text: String) -> Bool {
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0 == "\\" }),
              let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.user == nil, url.password == nil,
              let host = url.host, isHost(host), url.port.map({ (1...65_535).contains($0) }) ?? true
        else { return false }
        return true
    }

    private static func isHost(_ host: String) -> Bool {
        if host.hasPrefix("[") { return host.hasSuffix("]") && host.count > 2 && host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let named = labels.count > 1 && labels.last == "" ? labels.dropLast() : labels[...]
        return (1...127).contains(named.count) && named.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isLetter || ($0.isASCII && $0.isNumber) || $0 == "-" || $0 == "_" }
        }
    }
}
