/// Running totals per key, listed in the order the keys first appeared: a fold that adds up a run
/// of events and then writes each key's row inserts new rows in the order one-event-at-a-time
/// folding would, so they get the same rowids.
struct Tally<Key: Hashable, Value> {
    private(set) var keys: [Key] = []
    private var values: [Key: Value] = [:]
    private let zero: Value

    init(zero: Value) {
        self.zero = zero
    }

    mutating func add(_ key: Key, _ update: (inout Value) -> Void) {
        if values[key] == nil { keys.append(key) }
        let zero = zero
        update(&values[key, default: zero])
    }

    var entries: [(key: Key, value: Value)] {
        keys.map { ($0, values[$0] ?? zero) }
    }
}
