import Synchronization

/// What searches found, by query, for one revision of the catalog: each matching film with its rank.
///
/// A search's matches depend only on the catalog's titles and tags (its full-text indexes), which
/// change when films are added or tagged, not when they are rated; finding them was most of a
/// search's cost (four full-text lookups). The ratings that order them and the films' details are
/// read on every request. Bounded: when full, the entries of older revisions go first, then all.
final class SearchMatches: Sendable {
    private struct Entry {
        var revision: Int64
        var ranks: [(movieId: Int64, rank: Int)]
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let capacity: Int

    init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    /// The matches remembered for `query` at `revision`, else `find()`'s, remembered.
    func ranks(for query: String, revision: Int64, find: () throws -> [(movieId: Int64, rank: Int)]) rethrows -> [(movieId: Int64, rank: Int)] {
        if let known = entries.withLock({ $0[query] }), known.revision == revision { return known.ranks }
        let found = try find()
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.revision == revision }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[query] = Entry(revision: revision, ranks: found)
        }
        return found
    }
}
