import Foundation

/// The form of an article's URL that names it: scheme and host lowercased, no fragment, no
/// tracking parameters (`utm_*`, `fbclid`, `gclid`), no trailing slash on the path. Two links to
/// one article that differ only in those are one article.
public enum CanonicalURL {
    public static func of(_ raw: String) -> String? {
        guard var components = URLComponents(string: raw.trimmingCharacters(in: .whitespacesAndNewlines)),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { return nil }
        components.scheme = scheme
        components.host = host.lowercased()
        components.fragment = nil
        let kept = (components.queryItems ?? []).filter { item in
            let name = item.name.lowercased()
            return !name.hasPrefix("utm_") && name != "fbclid" && name != "gclid"
        }
        components.queryItems = kept.isEmpty ? nil : kept
        if components.path.count > 1, components.path.hasSuffix("/") { components.path.removeLast() }
        return components.string
    }
}
