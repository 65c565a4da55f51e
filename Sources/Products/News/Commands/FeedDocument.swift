import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NewsDomain

/// The articles of an RSS 2.0 or Atom document, read with Foundation's XML parser: each item's or
/// entry's link, title, description (summary, or HTML stripped to text), body (`content:encoded` or
/// Atom `content`, stripped) and date (RFC 822 or ISO 8601). The source is the channel's or feed's
/// title. Items without a link, a title or a readable date are left out; an item dated after
/// `fetchedAt` counts as published when it was fetched, since a feed ranks by the newest article it
/// holds and one item dated 2099 would otherwise leave every other article out of every feed.
public enum FeedDocument {
    public struct Unreadable: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    public static func articles(_ data: Data, feedURL: String, fetchedAt: Date = Date()) throws -> [ArticleIngested] {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else {
            throw Unreadable(description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "unknown error")")
        }
        guard reader.sawFeed else { throw Unreadable(description: "neither an RSS channel nor an Atom feed") }
        let source = reader.feedTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        return reader.items.compactMap { item in
            guard let link = item.link, !item.title.isEmpty, let date = date(item.date) else { return nil }
            return ArticleIngested(
                url: link, title: plainText(item.title), source: source.isEmpty ? (URL(string: feedURL)?.host ?? feedURL) : source,
                publishedAt: Int64(min(date, fetchedAt).timeIntervalSince1970), description: plainText(item.summary),
                body: item.content.isEmpty ? nil : plainText(item.content), feed: feedURL
            )
        }
    }

    struct Item {
        var title = "", link: String?, summary = "", content = "", date = ""
    }

    final class Reader: NSObject, XMLParserDelegate {
        var sawFeed = false
        var feedTitle = ""
        var items: [Item] = []
        private var current: Item?
        private var text = ""
        private var depthInItem = 0

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            text = ""
            switch name {
            case "channel", "feed": sawFeed = true
            case "item", "entry": current = Item()
            case "link" where current != nil:
                if let href = attributes["href"], attributes["rel"] == nil || attributes["rel"] == "alternate" { current?.link = href }
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            text += String(decoding: block, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            defer { text = "" }
            guard current != nil else {
                if name == "title", feedTitle.isEmpty { feedTitle = value }
                return
            }
            switch qualifiedName ?? name {
            case "item", "entry":
                if let item = current { items.append(item) }
                current = nil
            case "title": current?.title = value
            case "link" where !value.isEmpty: current?.link = value
            case "description", "summary": current?.summary = value
            case "content:encoded", "content": current?.content = value
            case "pubDate", "published", "dc:date": current?.date = value
            case "updated" where current?.date.isEmpty == true: current?.date = value
            default: break
            }
        }
    }

    /// ISO 8601 (with or without fractions) or RFC 822, as feeds and imports write instants.
    static func date(_ text: String) -> Date? {
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return date }
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = iso.date(from: text) { return date }
        let rfc822 = DateFormatter()
        rfc822.locale = Locale(identifier: "en_US_POSIX")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd MMM yyyy HH:mm:ss Z", "dd MMM yyyy HH:mm:ss zzz", "EEE, dd MMM yyyy HH:mm zzz"] {
            rfc822.dateFormat = format
            if let date = rfc822.date(from: text) { return date }
        }
        return nil
    }

    /// Markup removed, entities a reader would see decoded, white space folded.
    static func plainText(_ html: String) -> String {
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true; text.append(" ") } else if character == ">" { inTag = false } else if !inTag { text.append(character) }
        }
        for (entity, value) in ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&apos;": "'", "&nbsp;": " "] {
            text = text.replacingOccurrences(of: entity, with: value)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
