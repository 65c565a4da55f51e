/// Values by key, at most `capacity` of them and at most `maximumCost` in all: past either, the
/// least recently used go first. Lookups, insertions and evictions are O(1) (a dictionary over a
/// doubly linked list kept in an array). Not synchronised: callers hold it in a `NIOLockedValueBox`.
public struct LRUCache<Key: Hashable, Value> {
    fileprivate struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var newer: Int?
        var older: Int?
    }

    public let capacity: Int
    public let maximumCost: Int
    public private(set) var totalCost = 0
    private var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    private var freeSlots: [Int] = []
    private var newest: Int?
    private var oldest: Int?

    public init(capacity: Int, maximumCost: Int = .max) {
        precondition(capacity > 0 && maximumCost > 0, "an LRU cache holds at least one entry")
        self.capacity = capacity
        self.maximumCost = maximumCost
    }

    public var count: Int { slots.count }

    /// The value, which becomes the most recently used; nil when absent.
    public mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToNewest(slot)
        return nodes[slot].value
    }

    /// Keeps `value` as the most recently used, then drops the least recently used while over a
    /// limit. A value costing more than `maximumCost` on its own is not kept.
    public mutating func set(_ value: Value, for key: Key, cost: Int = 1) {
        removeValue(for: key)
        guard cost <= maximumCost else { return }
        let node = Node(key: key, value: value, cost: cost, newer: nil, older: newest)
        let slot: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            slot = free
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
        totalCost += cost
        while slots.count > capacity || totalCost > maximumCost, let oldest {
            removeValue(for: nodes[oldest].key)
        }
    }

    public mutating func removeValue(for key: Key) {
        guard let slot = slots.removeValue(forKey: key) else { return }
        unlink(slot)
        totalCost -= nodes[slot].cost
        freeSlots.append(slot)
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        nodes[slot].older = newest
        nodes[slot].newer = nil
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (nodes[slot].newer, nodes[slot].older)
        if let newer { nodes[newer].older = older } else { newest = older }
        if let older { nodes[older].newer = newer } else { oldest = newer }
    }
}

extension LRUCache: Sendable where Key: Sendable, Value: Sendable {}
extension LRUCache.Node: Sendable where Key: Sendable, Value: Sendable {}
