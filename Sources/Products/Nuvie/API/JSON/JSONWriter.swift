import Foundation
import Hummingbird

/// Contract JSON written field by field, for the responses served most often (a film, the activity
/// feed, search results). Foundation's `JSONEncoder` spent more time than the database on those
/// requests (generic metadata lookups, snake_case conversion of every key: see BENCHMARKS.md).
///
/// A type that writes itself keeps its `Encodable` conformance; `JSONWriterTests` holds the two
/// encodings equal, so the contract has one definition.
protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    mutating func object(_ fields: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        fields(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<Element: JSONWritable>(_ elements: [Element]) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { element.write(to: &self) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// `"key":value`; the key is written as given (already snake_case).
    mutating func field(_ key: String, _ value: some JSONWritable) {
        separate()
        quoted(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
        value.write(to: &self)
    }

    mutating func null() { raw("null") }

    mutating func string(_ value: String) {
        separate()
        quoted(value)
        needsComma = true
    }

    /// Numbers, `true` and `false`, written as they are.
    mutating func raw(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// RFC 8259 escaping: quote, backslash and control characters; `/` and non-ASCII as they are
    /// (the encoder uses `.withoutEscapingSlashes`).
    private mutating func quoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = text.utf8
        if utf8.withContiguousStorageIfAvailable({ !$0.contains(where: Self.needsEscape) }) == true {
            bytes.append(contentsOf: utf8)
        } else {
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                case ..<0x20:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// A 200 (or `status`) response with `value` as its JSON body.
    static func response(_ value: some JSONWritable, status: HTTPResponse.Status = .ok) -> Response {
        var json = JSONWriter()
        value.write(to: &json)
        return response(ByteBuffer(bytes: json.bytes), status: status)
    }

    /// A 200 (or `status`) response with JSON already written.
    static func response(_ body: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
    }
}

/// A response that writes itself by hand instead of through `JSONEncoder`.
extension ResponseGenerator where Self: JSONWritable {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONWriter.response(self)
    }
}

extension String: JSONWritable {
    func write(to json: inout JSONWriter) { json.string(self) }
}

extension Int: JSONWritable {
    func write(to json: inout JSONWriter) { json.raw(String(self)) }
}

extension Int64: JSONWritable {
    func write(to json: inout JSONWriter) { json.raw(String(self)) }
}

extension Bool: JSONWritable {
    func write(to json: inout JSONWriter) { json.raw(self ? "true" : "false") }
}

extension Double: JSONWritable {
    /// Swift's shortest round-trip form; JSON has no NaN or infinity, which nothing here produces.
    func write(to json: inout JSONWriter) {
        if isFinite { json.raw(description) } else { json.null() }
    }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
    func write(to json: inout JSONWriter) {
        if let self { self.write(to: &json) } else { json.null() }
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    func write(to json: inout JSONWriter) { json.array(self) }
}
