import Hummingbird

extension Request {
    /// The query parameter `name` as a whole number in `range`, `value` when it is absent; nil when it
    /// is not one written as a client writes a count or an offset (ASCII digits, a minus for a
    /// negative one: `Int(_:)` alone also takes `+5`), for the product to refuse in its own shape.
    public func queryInteger(_ name: String, default value: Int, in range: ClosedRange<Int>) -> Int? {
        guard let raw = uri.queryParameters[Substring(name)] else { return value }
        let digits = raw.first == "-" ? raw.dropFirst() : raw[...]
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let number = Int(raw), range.contains(number)
        else { return nil }
        return number
    }
}
