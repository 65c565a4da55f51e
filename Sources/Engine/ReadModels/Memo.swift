import EventSourcing

/// Values kept in memory by id while their key (what they were made from: a stamp, a revision) still
/// matches and they have not expired; past `capacity` ids the least recently used is dropped.
/// Callers hold it in a `NIOLockedValueBox`. Used for per-user results (scores, feeds) and for what the read
/// models make cheap to remember (search matches per catalog revision, decoded genre lists).
public struct Memo<Id: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var key: String
        var value: Value
        var expiresAt: Double
    }

    private var entries: LRUCache<Id, Entry>

    /// At most `capacity` values, and at most `maximumCost` in all when values say what they cost.
    public init(capacity: Int = 1024, maximumCost: Int = .max) {
        entries = LRUCache(capacity: capacity, maximumCost: maximumCost)
    }

    public var capacity: Int { entries.capacity }

    public mutating func get(_ id: Id, key: String, now: Double = 0) -> Value? {
        guard let entry = entries.value(for: id), entry.key == key, entry.expiresAt > now else { return nil }
        return entry.value
    }

    public mutating func put(_ id: Id, key: String, _ value: Value, expiresAt: Double = .infinity, cost: Int = 1) {
        entries.set(Entry(key: key, value: value, expiresAt: expiresAt), for: id, cost: cost)
    }

    public mutating func remove(_ id: Id) {
        entries.removeValue(for: id)
    }
}
