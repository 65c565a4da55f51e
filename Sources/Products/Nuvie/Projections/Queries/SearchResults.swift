import ReadModels
import NIOConcurrencyHelpers

/// What searches found, remembered until the read models they came from move.
///
/// A query's matches (each film with its rank) depend only on the catalog's titles and tags, which
/// change when films are added or tagged (`catalogRevision`); finding them is four full-text lookups.
/// Their order also depends on the films' rating counts (`movieStatsRevision`): a query's whole
/// ordered result is remembered until either moves, so a page is a slice of it and one lookup of
/// that page's films. A common word (`q=the`) matches thousands of films, which were ranked and
/// sorted on every request before (BENCHMARKS.md, issue 18).
final class SearchResults: Sendable {
    typealias Ranks = [(movieId: Int64, rank: Int)]

    private let ranks = NIOLockedValueBox(Memo<String, Ranks>(capacity: 1_024))
    /// Bounded by films held in all (8 bytes each), not only by queries.
    private let ordered = NIOLockedValueBox(Memo<String, [Int64]>(capacity: 1_024, maximumCost: 2_000_000))

    /// The matches remembered for `query` at this catalog revision, else `find()`'s, remembered.
    func ranks(for query: String, catalogRevision: Int64, find: () throws -> Ranks) rethrows -> Ranks {
        try remembered(in: ranks, query, key: String(catalogRevision), cost: 1, find)
    }

    /// The ordered film ids remembered for `query` at these revisions, else `order()`'s, remembered.
    func ordered(for query: String, catalogRevision: Int64, statsRevision: Int64, order: () throws -> [Int64]) rethrows -> [Int64] {
        try remembered(in: ordered, query, key: "\(catalogRevision):\(statsRevision)", cost: nil, order)
    }

    private func remembered<Value: Sendable & Collection>(
        in memo: borrowing NIOLockedValueBox<Memo<String, Value>>, _ query: String, key: String, cost: Int?, _ make: () throws -> Value
    ) rethrows -> Value {
        if let known = memo.withLockedValue({ $0.get(query, key: key) }) { return known }
        let made = try make()
        memo.withLockedValue { $0.put(query, key: key, made, cost: cost ?? max(1, made.count)) }
        return made
    }
}
