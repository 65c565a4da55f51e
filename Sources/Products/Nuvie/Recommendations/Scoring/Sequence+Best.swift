extension Sequence {
    /// The first `limit` elements in `areInIncreasingOrder`'s order, as `sorted(by:).prefix(limit)`
    /// gives them for a strict total order, found without sorting the rest: a ranking wants ten
    /// films of thousands.
    func best(_ limit: Int, by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        var best: [Element] = []
        guard limit > 0 else { return best }
        for element in self where best.count < limit || areInIncreasingOrder(element, best[best.count - 1]) {
            best.insert(element, at: best.firstIndex { areInIncreasingOrder(element, $0) } ?? best.endIndex)
            if best.count > limit { best.removeLast() }
        }
        return best
    }
}
