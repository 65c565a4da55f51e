/// One page of a list, with the size of the whole list.
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var totalCount: Int

    public init(items: [Item], totalCount: Int) {
        self.items = items
        self.totalCount = totalCount
    }
}
