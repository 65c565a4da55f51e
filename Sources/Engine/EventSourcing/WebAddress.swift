import Foundation

/// An address an app loads as an image (an avatar, a recipe's photo): an absolute `http` or `https`
/// URL, the scheme in any case, naming a host, with no blank in it.
public enum WebAddress {
    public static func isHTTP(_ text: String) -> Bool {
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace }),
              let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty
        else { return false }
        return true
    }
}
