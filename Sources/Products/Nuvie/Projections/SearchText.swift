import Foundation

/// How titles and queries are compared: lowercase, accents folded, MovieLens's trailing article
/// ("Matrix, The") put back in front, runs of spaces collapsed.
enum SearchText {
    private static let trailingArticles = ["the", "a", "an", "le", "la", "les", "l'", "il", "el", "los", "las", "das", "der", "die", "den", "det"]

    static func normalize(_ text: String) -> String {
        var folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for article in trailingArticles where folded.hasSuffix(", " + article) {
            folded = article + (article.hasSuffix("'") ? "" : " ") + folded.dropLast(article.count + 2)
            break
        }
        return folded
    }

    /// The query's words: letters and digits only, so nothing the user types reaches FTS5 as syntax.
    static func words(_ text: String) -> [String] {
        normalize(text).split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// An FTS5 query: every word, each quoted (as a phrase) and optionally as a prefix, all required.
    static func ftsQuery(_ words: [String], column: String? = nil, prefix: Bool = false) -> String {
        let terms = words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"" + (prefix ? "*" : "") }.joined(separator: " AND ")
        return column.map { "\($0) : (\(terms))" } ?? terms
    }

    /// `text` with LIKE's wildcards escaped by `\`.
    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
