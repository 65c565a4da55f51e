/// Values kept in memory by id while their key (what they were made from: a stamp, a revision) still
/// matches and they have not expired; past `capacity` ids the least recently used is dropped.
/// Callers hold it in a `Mutex`. Used for per-user results (scores, feeds) and for what the read
/// models make cheap to remember (search matches per catalog revision, decoded genre lists).
public struct Memo<Id: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var key: String
        var value: Value
        var expiresAt: Double
        var lastUse: UInt64
    }

    public let capacity: Int
    private var entries: [Id: Entry] = [:]
    private var clock: UInt64 = 0

    public init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    public mutating func get(_ id: Id, key: String, now: Double = 0) -> Value? {
        guard var entry = entries[id], entry.key == key, entry.expiresAt > now else { return nil }
        clock += 1
        entry.lastUse = clock
        entries[id] = entry
        return entry.value
    }

    public mutating func put(_ id: Id, key: String, _ value: Value, expiresAt: Double = .infinity) {
        if entries[id] == nil, entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        clock += 1
        entries[id] = Entry(key: key, value: value, expiresAt: expiresAt, lastUse: clock)
    }
}
