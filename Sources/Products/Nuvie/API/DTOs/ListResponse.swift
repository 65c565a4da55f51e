import HTTPServing
import Hummingbird

/// The pagination envelope: the list under its own key (`reviews`, `movies`, …: one lowercase word,
/// written as it is) plus `total_count`, `limit`, `offset`, `has_more`.
struct ListResponse<Item: Encodable & Sendable>: ResponseEncodable, Sendable {
    let key: String
    let items: [Item]
    let totalCount: Int
    let page: Pagination

    /// Written by `JSONWriter` when the items can be, else through the contract's `JSONEncoder`.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        if let writable = self as? any JSONWritable { return JSONWriter.response(writable) }
        return try context.responseEncoder.encode(self, from: request, context: context)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(items, forKey: Key(key))
        try container.encode(totalCount, forKey: Key("totalCount"))
        try container.encode(page.limit, forKey: Key("limit"))
        try container.encode(page.offset, forKey: Key("offset"))
        try container.encode(page.offset + items.count < totalCount, forKey: Key("hasMore"))
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension ListResponse: JSONWritable where Item: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field(key, items)
            json.field("total_count", totalCount)
            json.field("limit", page.limit)
            json.field("offset", page.offset)
            json.field("has_more", page.offset + items.count < totalCount)
        }
    }
}

/// `limit` (1–100, default 20) and `offset` (≥ 0, default 0) from the query string.
struct Pagination: Sendable {
    static let defaultLimit = 20
    static let maximumLimit = 100

    var limit: Int
    var offset: Int

    init(_ request: Request) throws {
        limit = try Self.integer(request, "limit", default: Self.defaultLimit, range: 1...Self.maximumLimit)
        offset = try Self.integer(request, "offset", default: 0, range: 0...Int(Int32.max))
    }

    static func integer(_ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let parsed = request.queryInteger(name, default: value, in: range) else {
            throw NuvieAPIError.validation("\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)", field: name)
        }
        return parsed
    }
}
