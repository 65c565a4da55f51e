import EventSourcing
import Testing

@Suite struct LRUCacheTests {
    @Test func pastCapacityTheLeastRecentlyUsedGoes() {
        var cache = LRUCache<String, Int>(capacity: 3)
        for (index, key) in ["a", "b", "c"].enumerated() { cache.set(index, for: key) }
        #expect(cache.value(for: "a") == 0)
        cache.set(3, for: "d")
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 0 && cache.value(for: "c") == 2 && cache.value(for: "d") == 3)
        #expect(cache.count == 3)
    }

    @Test func costIsBoundedAndAValueTooCostlyAloneIsNotKept() {
        var cache = LRUCache<String, String>(capacity: 100, maximumCost: 10)
        cache.set("x", for: "a", cost: 4)
        cache.set("y", for: "b", cost: 4)
        cache.set("z", for: "c", cost: 4)
        #expect(cache.value(for: "a") == nil && cache.totalCost == 8)
        cache.set("big", for: "d", cost: 11)
        #expect(cache.value(for: "d") == nil && cache.totalCost == 8)
        cache.set("b again", for: "b", cost: 1)
        #expect(cache.value(for: "b") == "b again" && cache.totalCost == 5)
    }

    @Test func removingAndReusingSlotsKeepsTheOrder() {
        var cache = LRUCache<Int, Int>(capacity: 4)
        for key in 0..<4 { cache.set(key, for: key) }
        cache.removeValue(for: 1)
        cache.removeValue(for: 3)
        cache.set(10, for: 10)
        cache.set(11, for: 11)
        _ = cache.value(for: 0)
        cache.set(12, for: 12)
        #expect(cache.value(for: 2) == nil)
        #expect([0, 10, 11, 12].allSatisfy { cache.value(for: $0) != nil } && cache.count == 4)
    }

    /// Against a plain model (an array ordered by use) over a long seeded run of mixed operations.
    @Test func behavesLikeTheObviousModel() {
        var cache = LRUCache<Int, Int>(capacity: 8, maximumCost: 20)
        var model: [(key: Int, value: Int, cost: Int)] = []
        var generator = SplitMix(seed: 7)
        for step in 0..<20_000 {
            let key = Int(generator.next() % 16)
            switch generator.next() % 3 {
            case 0:
                let cost = Int(generator.next() % 6) + 1
                cache.set(step, for: key, cost: cost)
                model.removeAll { $0.key == key }
                model.append((key, step, cost))
                while model.count > 8 || model.map(\.cost).reduce(0, +) > 20 { model.removeFirst() }
            case 1:
                let expected = model.firstIndex { $0.key == key }.map { model.remove(at: $0) }
                if let expected { model.append(expected) }
                #expect(cache.value(for: key) == expected?.value)
            default:
                cache.removeValue(for: key)
                model.removeAll { $0.key == key }
            }
            #expect(cache.count == model.count && cache.totalCost == model.map(\.cost).reduce(0, +))
        }
    }
}

private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
