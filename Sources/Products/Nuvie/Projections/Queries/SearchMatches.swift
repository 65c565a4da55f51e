import ReadModels
import Synchronization

/// What searches found, by query, for one revision of the catalog: each matching film with its rank.
///
/// A search's matches depend only on the catalog's titles and tags (its full-text indexes), which
/// change when films are added or tagged, not when they are rated; finding them was most of a
/// search's cost (four full-text lookups). The ratings that order them and the films' details are
/// read on every request.
final class SearchMatches: Sendable {
    typealias Ranks = [(movieId: Int64, rank: Int)]

    private let memo = Mutex(Memo<String, Ranks>(capacity: 1_024))

    /// The matches remembered for `query` at `revision`, else `find()`'s, remembered.
    func ranks(for query: String, revision: Int64, find: () throws -> Ranks) rethrows -> Ranks {
        let key = String(revision)
        if let known = memo.withLock({ $0.get(query, key: key) }) { return known }
        let found = try find()
        memo.withLock { $0.put(query, key: key, found) }
        return found
    }
}
