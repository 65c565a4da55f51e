@testable import NuvieRecommendations
import Testing

/// The best few of a sequence are its sorted order's first, ties broken as the order says.
@Test func theBestAreTheSortedOrdersFirst() {
    let values = (0..<200).map { ($0 * 7919) % 37 }
    let order = { (a: Int, b: Int) in values[a] != values[b] ? values[a] > values[b] : a < b }
    for limit in [0, 1, 5, 37, 250] {
        #expect((0..<200).best(limit, by: order) == Array((0..<200).sorted(by: order).prefix(limit)), "\(limit)")
    }
}
