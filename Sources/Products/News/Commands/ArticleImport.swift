import Foundation
import NewsDomain

/// Articles from JSON lines, one object a line: `url`, `title`, `source`, `published_at` (ISO 8601
/// or epoch seconds), `description`, and `body` when known. A line that is not such an article is
/// reported with its number and reason, and skipped.
public struct ArticleImport: Sendable {
    public struct Rejected: Sendable, Equatable {
        public var line: Int
        public var reason: String
    }

    public var articles: [ArticleIngested] = []
    public var rejected: [Rejected] = []

    struct Line: Decodable {
        var url: String
        var title: String
        var source: String
        var published_at: Published
        var description: String?
        var body: String?

        enum Published: Decodable {
            case seconds(Int64), text(String)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let seconds = try? container.decode(Int64.self) { self = .seconds(seconds) } else { self = .text(try container.decode(String.self)) }
            }
        }
    }

    public init(jsonLines: Data, feed: String) {
        let decoder = JSONDecoder()
        for (index, line) in String(decoding: jsonLines, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            do {
                let parsed = try decoder.decode(Line.self, from: Data(line.utf8))
                let published: Int64
                switch parsed.published_at {
                case .seconds(let seconds): published = seconds
                case .text(let text):
                    guard let date = FeedDocument.date(text) else { throw NewsRules.Refusal.invalid(field: "published_at", reason: "must be ISO 8601 or epoch seconds") }
                    published = Int64(date.timeIntervalSince1970)
                }
                articles.append(try NewsRules.article(ArticleIngested(
                    url: parsed.url, title: parsed.title, source: parsed.source, publishedAt: published,
                    description: parsed.description ?? "", body: parsed.body, feed: feed
                )))
            } catch let refusal as NewsRules.Refusal {
                rejected.append(Rejected(line: index + 1, reason: refusal.description))
            } catch {
                rejected.append(Rejected(line: index + 1, reason: "not an article object (url, title, source, published_at)"))
            }
        }
    }
}
