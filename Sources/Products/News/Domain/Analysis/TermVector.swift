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
    /// group's centroid with one more article. Its `keep` heaviest terms (ties: the first in order).
    public func merged(_ other: TermVector, selfCount: Int, keep: Int = 64) -> TermVector {
        // Both are sorted by term: one walk sums them in term order.
        var sums: [(term: String, value: Double)] = []
        sums.reserveCapacity(terms.count + other.terms.count)
        var (i, j) = (0, 0)
        while i < terms.count || j < other.terms.count {
            if j == other.terms.count || (i < terms.count && terms[i] < other.terms[j]) {
                sums.append((terms[i], weights[i] * Double(selfCount)))
                i += 1
            } else if i == terms.count || other.terms[j] < terms[i] {
                sums.append((other.terms[j], other.weights[j]))
                j += 1
            } else {
                sums.append((terms[i], weights[i] * Double(selfCount) + other.weights[j]))
                i += 1
                j += 1
            }
        }
        let kept = sums.indices.sorted { sums[$0].value != sums[$1].value ? sums[$0].value > sums[$1].value : $0 < $1 }.prefix(keep).sorted()
        let norm = sqrt(kept.reduce(0) { $0 + sums[$1].value * sums[$1].value })
        return TermVector(terms: kept.map { sums[$0].term }, weights: kept.map { norm > 0 ? sums[$0].value / norm : 0 })
    }
}
