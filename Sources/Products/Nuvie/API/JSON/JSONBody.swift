import HTTPServing
import JSONText
import Foundation
import Hummingbird

/// A request's JSON object, read field by field so each bad field gets its own clear 400.
///
/// What a body must be, the same on every endpoint: sent as `Content-Type: application/json` (else
/// 415), RFC 8259 JSON with no trailing comma and no repeated key (`StrictJSON`), an object, and
/// holding only the fields the endpoint reads (a misspelt optional field would otherwise be
/// dropped without a word, and the request recorded without it).
struct JSONBody {
    private let fields: [String: JSONValue]

    static func decode(_ request: Request, context: some RequestContext, fields allowed: Set<String>) async throws -> JSONBody {
        guard let body = try await decodeIfPresent(request, context: context, fields: allowed) else {
            throw NuvieAPIError.validation("Request body must be a JSON object")
        }
        return body
    }

    /// nil for an empty body, for endpoints whose body is optional.
    static func decodeIfPresent(_ request: Request, context: some RequestContext, fields allowed: Set<String>) async throws -> JSONBody? {
        let buffer = try await request.body.collect(atMost: context.maxUploadSize)
        guard buffer.readableBytes > 0 else { return nil }
        guard request.headers.declaresJSON else { throw NuvieAPIError.unsupportedMediaType }
        let parsed: JSONValue
        do {
            parsed = try StrictJSON.parse(Array(buffer.readableBytesView))
        } catch {
            throw NuvieAPIError.validation("Request body is not valid JSON: \(error.reason)")
        }
        guard case .object(let fields) = parsed else { throw NuvieAPIError.validation("Request body must be a JSON object") }
        let body = JSONBody(fields: fields)
        try body.rejectUnknownFields(allowed: allowed)
        return body
    }

    /// For an endpoint that reads no body: nothing, or `{}`; anything else is refused as a field an
    /// endpoint does not read is (400), or as a body that is not JSON (415).
    static func none(_ request: Request, context: some RequestContext) async throws {
        _ = try await decodeIfPresent(request, context: context, fields: [])
    }

    private init(fields: [String: JSONValue]) {
        self.fields = fields
    }

    private func value(_ field: String) -> JSONValue? {
        guard let value = fields[field], value != .null else { return nil }
        return value
    }

    /// A whole number; 4.0 counts, 4.5, "4" and true do not. nil when absent or null.
    func integer(_ field: String, orThrow error: @autoclosure () -> NuvieAPIError) throws -> Int? {
        guard let value = value(field) else { return nil }
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e15 else { throw error() }
        return Int(number)
    }

    /// Present, and not blank: white space and invisible characters (a zero-width space, a byte-order
    /// mark) alone name no identifier, version or action.
    func requiredString(_ field: String, maxLength: Int = 10_000) throws -> String {
        let visible = { (scalar: Unicode.Scalar) in !scalar.properties.isWhitespace && !scalar.properties.isDefaultIgnorableCodePoint }
        guard let value = try string(field, maxLength: maxLength), value.unicodeScalars.contains(where: visible) else {
            throw NuvieAPIError.validation("\(field) is required", field: field)
        }
        return value
    }

    func string(_ field: String, maxLength: Int = 10_000) throws -> String? {
        guard let value = value(field) else { return nil }
        guard case .string(let string) = value else { throw NuvieAPIError.validation("\(field) must be a string", field: field) }
        guard string.count <= maxLength else { throw NuvieAPIError.validation("\(field) must be at most \(maxLength) characters", field: field) }
        try TextRule.check(string, field: field)
        return string
    }

    func bool(_ field: String) throws -> Bool? {
        guard let value = value(field) else { return nil }
        guard case .bool(let bool) = value else { throw NuvieAPIError.validation("\(field) must be true or false", field: field) }
        return bool
    }

    /// Whether the field is present at all, `null` included (in a PATCH, `null` clears a value).
    func contains(_ field: String) -> Bool {
        fields[field] != nil
    }

    /// 400 naming the first field not in `allowed`, so a misspelt field is not silently ignored.
    private func rejectUnknownFields(allowed: Set<String>) throws {
        if let unknown = fields.firstField(notIn: allowed) {
            throw NuvieAPIError.validation("\(unknown) is not a field of this request", field: unknown)
        }
    }

    /// A nested object, read the same way; nil when absent or null.
    func object(_ field: String) throws -> JSONBody? {
        guard let value = value(field) else { return nil }
        guard case .object(let nested) = value else { throw NuvieAPIError.validation("\(field) must be an object", field: field) }
        return JSONBody(fields: nested)
    }

    func stringList(_ field: String, maxCount: Int, maxLength: Int) throws -> [String]? {
        guard let value = value(field) else { return nil }
        let invalid = NuvieAPIError.validation("\(field) must be a list of at most \(maxCount) strings", field: field)
        guard case .array(let items) = value, items.count <= maxCount else { throw invalid }
        return try items.map { item in
            guard case .string(let string) = item, string.count <= maxLength else { throw invalid }
            try TextRule.check(string, field: field)
            return string
        }
    }

    func idList(_ field: String, maxCount: Int) throws -> [Int64]? {
        guard let value = value(field) else { return nil }
        let invalid = NuvieAPIError.validation("\(field) must be a list of at most \(maxCount) positive integer ids", field: field)
        guard case .array(let items) = value, items.count <= maxCount else { throw invalid }
        return try items.map { item in
            guard case .number(let number) = item, number.rounded() == number, number >= 1, number < 1e15 else { throw invalid }
            return Int64(number)
        }
    }
}
