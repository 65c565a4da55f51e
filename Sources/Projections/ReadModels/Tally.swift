/// Running totals per key, listed in the order the keys first appeared: a fold that adds up a run
/// of events and then writes each key's row inserts new rows in the order one-event-at-a-time
/// folding would, so they get the same rowids.
struct Tally<Key: Hashable, Value> {
    private(set) var entries: [(key: Key, value: Value)] = []
    private var indices: [Key: Int] = [:]
    private let zero: Value

    init(zero: Value) {
        self.zero = zero
    }

    mutating func add(_ key: Key, _ update: (inout Value) -> Void) {
        let count = entries.count
        let index = indices[key, default: count]
        if index == count {
            indices[key] = index
            entries.append((key, zero))
        }
        update(&entries[index].value)
    }
}
