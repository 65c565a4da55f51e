/// Words as the analysis compares them: lowercased letters and digits, stop words dropped, and a
/// light suffix-stripping stem (`reports`, `reported`, `reporting` → `report`), so that two outlets'
/// wordings of one event share their terms.
public enum Terms {
    public static func of(_ text: String) -> [String] {
        var terms: [String] = []
        var word = ""
        for scalar in text.lowercased().unicodeScalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
                word.unicodeScalars.append(scalar)
            } else {
                flush(&word, into: &terms)
            }
        }
        flush(&word, into: &terms)
        return terms
    }

    private static func flush(_ word: inout String, into terms: inout [String]) {
        defer { word = "" }
        guard word.count >= 2, !stopWords.contains(word) else { return }
        terms.append(stem(word))
    }

    static func stem(_ word: String) -> String {
        for suffix in ["ings", "ing", "edly", "ed", "ies", "es", "s", "ly"] where word.hasSuffix(suffix) && word.count - suffix.count >= 3 {
            let root = String(word.dropLast(suffix.count))
            return suffix == "ies" ? root + "y" : root
        }
        return word
    }

    static let stopWords: Set<String> = [
        "the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "with", "as", "at", "by", "from", "its", "it", "is", "are", "was",
        "were", "be", "been", "has", "have", "had", "that", "this", "these", "those", "after", "before", "over", "into", "about", "than",
        "but", "not", "will", "would", "could", "should", "may", "might", "their", "they", "them", "he", "she", "his", "her", "we", "our",
        "you", "your", "said", "says", "say", "also", "new", "more", "most", "some", "what", "which", "who", "while", "amid", "per",
    ]
}
