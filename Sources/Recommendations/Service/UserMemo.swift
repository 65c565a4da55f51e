/// Per-user values kept in memory while their key (what they were made from) still matches and they
/// have not expired; past `capacity` users the least recently used is dropped.
public struct UserMemo<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var key: String
        var value: Value
        var expiresAt: Double
        var lastUse: UInt64
    }

    public let capacity: Int
    private var entries: [Int64: Entry] = [:]
    private var clock: UInt64 = 0

    public init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    public mutating func get(_ userId: Int64, key: String, now: Double = 0) -> Value? {
        guard var entry = entries[userId], entry.key == key, entry.expiresAt > now else { return nil }
        clock += 1
        entry.lastUse = clock
        entries[userId] = entry
        return entry.value
    }

    public mutating func put(_ userId: Int64, key: String, _ value: Value, expiresAt: Double = .infinity) {
        if entries[userId] == nil, entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        clock += 1
        entries[userId] = Entry(key: key, value: value, expiresAt: expiresAt, lastUse: clock)
    }
}
