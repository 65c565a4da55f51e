import NewsProjections
import ReadModels

/// What the `/v1` reads start from: the read models' revision, which remembered answers are kept by
/// (the runner's count: no SQL, and it moves on a replay's swap too), and each caller's preferences,
/// remembered at it.
struct CurrentReads: Sendable {
    let queries: NewsQueries
    private let readModels: ReadModelRevision
    private let remembered: RememberedReads<String, StoredPreferences>

    init(queries: NewsQueries, readModels: ReadModelRevision) {
        self.queries = queries
        self.readModels = readModels
        remembered = RememberedReads(revision: readModels, capacity: 4_096)
    }

    var revision: String { String(readModels.current) }

    func preferences(of userId: String) throws -> StoredPreferences {
        try remembered.value(userId) { try queries.preferences(of: userId) } ?? .none
    }
}
