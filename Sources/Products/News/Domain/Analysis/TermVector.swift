import Foundation

/// A sparse TF-IDF vector, unit length, its terms sorted: what clustering compares by cosine.
public struct TermVector: Sendable, Equatable, Codable {
    public var terms: [String]
    public var weights: [Double]

    public init(terms: [String], weights: [Double]) {
        self.terms = terms
        self.weights = weights
    }

    /// `counts` weighed by inverse document frequency (`documents` in all, `frequency(term)` holding
    /// each term), normalised.
    public static func tfidf(_ counts: [String: Int], documents: Int, frequency: (String) -> Int) -> TermVector {
        let raw = counts.map { term, count in
            (term, (1 + log(Double(count))) * log(Double(documents + 1) / Double(frequency(term) + 1)) + 1e-9)
        }.sorted { $0.0 < $1.0 }
        let norm = sqrt(raw.reduce(0) { $0 + $1.1 * $1.1 })
        return TermVector(terms: raw.map(\.0), weights: raw.map { norm > 0 ? $0.1 / norm : 0 })
    }

    public func cosine(_ other: TermVector) -> Double {
        var (i, j, sum) = (0, 0, 0.0)
        while i < terms.count, j < other.terms.count {
            if terms[i] == other.terms[j] {
                sum += weights[i] * other.weights[j]
                i += 1
                j += 1
            } else if terms[i] < other.terms[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return sum
    }

    /// The normalised sum of `self` and `other` weighed by how many articles each stands for: a
    /// group's centroid with one more article.
    public func merged(_ other: TermVector, selfCount: Int, keep: Int = 64) -> TermVector {
        var sums: [String: Double] = [:]
        for (term, weight) in zip(terms, weights) { sums[term, default: 0] += weight * Double(selfCount) }
        for (term, weight) in zip(other.terms, other.weights) { sums[term, default: 0] += weight }
        let top = sums.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(keep).sorted { $0.key < $1.key }
        let norm = sqrt(top.reduce(0) { $0 + $1.value * $1.value })
        return TermVector(terms: top.map(\.key), weights: top.map { norm > 0 ? $0.value / norm : 0 })
    }
}
