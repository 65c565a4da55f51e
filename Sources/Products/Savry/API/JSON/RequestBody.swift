import Foundation
import HTTPServing
import JSONText
import Hummingbird

/// A request's JSON object, read field by field so each bad field gets a 400 naming it.
///
/// A body must be sent as `Content-Type: application/json` (else 415), be RFC 8259 JSON with no
/// trailing comma and no repeated key (`StrictJSON`), be an object, and hold only the fields the
/// endpoint reads: a misspelt field would otherwise be dropped without a word.
struct RequestBody {
    private let fields: [String: JSONValue]
    /// How errors name a field of this object: `name`, or `ingredients[2].name` for a nested one.
    private let path: String

    static func decode(_ request: Request, context: some RequestContext, fields allowed: Set<String>) async throws -> RequestBody {
        let buffer = try await request.body.collect(atMost: context.maxUploadSize)
        guard buffer.readableBytes > 0 else { throw SavryAPIError.badRequest("Invalid JSON: the request body must be a JSON object") }
        guard request.headers.declaresJSON else { throw SavryAPIError.unsupportedMediaType }
        let parsed: JSONValue
        do {
            parsed = try StrictJSON.parse(Array(buffer.readableBytesView))
        } catch {
            throw SavryAPIError.badRequest("Invalid JSON: \(error.reason)")
        }
        guard case .object(let fields) = parsed else { throw SavryAPIError.badRequest("Invalid JSON: the request body must be a JSON object") }
        return try RequestBody(fields: fields, path: "", allowed: allowed)
    }

    private init(fields: [String: JSONValue], path: String, allowed: Set<String>) throws {
        self.fields = fields
        self.path = path
        if let unknown = fields.firstField(notIn: allowed) {
            throw SavryAPIError.badRequest("\(name(unknown)) is not a field of this request")
        }
    }

    /// Absent: nil. `null`: `.some(nil)`. A value: `.some(value)`, or a 400 naming the field when it
    /// is not of the type `read` accepts.
    private func field<T>(_ key: String, _ expected: String, _ read: (JSONValue) -> T?) throws -> T?? {
        guard let value = fields[key] else { return nil }
        guard value != .null else { return .some(nil) }
        guard let typed = read(value) else { throw SavryAPIError.badRequest("\(name(key)) must be \(expected)") }
        return .some(typed)
    }

    private func name(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    func contains(_ key: String) -> Bool { fields[key] != nil }

    func string(_ key: String) throws -> String?? {
        try field(key, "a string") { if case .string(let text) = $0 { text } else { nil } }
    }

    /// A whole number: 4 and 4.0 count; 4.5, "4" and true do not.
    func integer(_ key: String) throws -> Int?? {
        try field(key, "a whole number") { value in
            guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e15 else { return nil }
            return Int(number)
        }
    }

    func number(_ key: String) throws -> Double?? {
        try field(key, "a number") { if case .number(let number) = $0 { number } else { nil } }
    }

    func bool(_ key: String) throws -> Bool?? {
        try field(key, "true or false") { if case .bool(let bool) = $0 { bool } else { nil } }
    }

    func stringList(_ key: String) throws -> [String]?? {
        try field(key, "a list of strings") { value in
            guard case .array(let items) = value else { return nil }
            var strings: [String] = []
            for item in items {
                guard case .string(let text) = item else { return nil }
                strings.append(text)
            }
            return strings
        }
    }

    /// A list of objects, each read with `allowed` fields and handed to `read`.
    func objectList<T>(_ key: String, fields allowed: Set<String>, _ read: (RequestBody) throws -> T) throws -> [T]?? {
        guard let items = try field(key, "a list of objects", { value -> [JSONValue]? in if case .array(let items) = value { items } else { nil } }) else { return nil }
        guard let items else { return .some(nil) }
        return .some(try items.enumerated().map { index, item in
            let itemPath = "\(name(key))[\(index)]"
            guard case .object(let nested) = item else { throw SavryAPIError.badRequest("\(itemPath) must be an object") }
            return try read(RequestBody(fields: nested, path: itemPath, allowed: allowed))
        })
    }

    /// A field that must be present and not null.
    func required<T>(_ key: String, _ value: T??) throws -> T {
        guard case .some(.some(let present)) = value else { throw SavryAPIError.badRequest("\(name(key)) is required") }
        return present
    }

    /// A field that may be absent but not null.
    func notNull<T>(_ key: String, _ value: T??) throws -> T? {
        guard let value else { return nil }
        guard let value else { throw SavryAPIError.badRequest("\(name(key)) cannot be null") }
        return value
    }
}
