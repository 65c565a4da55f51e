import Foundation

/// Reads a request body as RFC 8259 JSON and nothing looser. Foundation's readers accept trailing
/// commas, and take the first (`JSONDecoder`) or the last (`JSONSerialization`) of a repeated key:
/// a body that two readers see differently is how a proxy and a server come to disagree about a
/// request, so both are refused here. `validate` checks a file said to be JSON by the same grammar.
public struct StrictJSON {
    public struct Invalid: Error, Equatable {
        public var reason: String
    }

    /// Deep enough for any body of this API; deeper is refused before it can exhaust the stack.
    public static let bodyMaximumDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    /// Whether values are kept (`parse`), or only checked (`validate`: nothing is built, so a file
    /// of megabytes costs no tree of them).
    private let building: Bool
    private let maximumDepth: Int

    public static func parse(_ bytes: [UInt8]) throws(Invalid) -> JSONValue {
        var parser = StrictJSON(bytes: bytes, building: true, maximumDepth: bodyMaximumDepth)
        return try parser.whole()
    }

    /// Checks that `bytes` are one JSON text as RFC 8259 writes it, for a file someone sends (a chat
    /// attachment) that others will open: a leading byte order mark is allowed, keys may repeat (the
    /// RFC only says they should not), numbers may be past a `Double`. Nested at most `maximumDepth`
    /// levels, which bounds the stack the check takes.
    public static func validate(_ bytes: [UInt8], maximumDepth: Int = 256) throws(Invalid) {
        var parser = StrictJSON(bytes: bytes, building: false, maximumDepth: maximumDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        _ = try parser.whole()
    }

    private init(bytes: [UInt8], building: Bool, maximumDepth: Int) {
        self.bytes = bytes
        self.building = building
        self.maximumDepth = maximumDepth
    }

    private mutating func whole() throws(Invalid) -> JSONValue {
        let value = try value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw Invalid(reason: "unexpected text after the JSON value") }
        return value
    }

    private mutating func value(depth: Int) throws(Invalid) -> JSONValue {
        guard depth < maximumDepth else { throw Invalid(reason: "nested more than \(maximumDepth) levels deep") }
        skipWhitespace()
        guard let byte = peek() else { throw Invalid(reason: "unexpected end of the body") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func object(depth: Int) throws(Invalid) -> JSONValue {
        index += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return .object(fields) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw Invalid(reason: "expected a quoted key") }
            let key = try string()
            guard !building || fields[key] == nil else { throw Invalid(reason: "the key \"\(key)\" appears twice") }
            skipWhitespace()
            try expect(":")
            let field = try value(depth: depth + 1)
            if building { fields[key] = field }
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { index += 1; return .object(fields) }
            try expect(",")
        }
    }

    private mutating func array(depth: Int) throws(Invalid) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            let item = try value(depth: depth + 1)
            if building { items.append(item) }
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { index += 1; return .array(items) }
            try expect(",")
        }
    }

    private mutating func string() throws(Invalid) -> String {
        index += 1
        var utf8: [UInt8] = []
        while let byte = peek() {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw Invalid(reason: "a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                utf8 += try escape()
            case 0x00..<0x20:
                throw Invalid(reason: "a string holds an unescaped control character")
            default:
                utf8.append(byte)
            }
        }
        throw Invalid(reason: "a string is not closed")
    }

    private mutating func escape() throws(Invalid) -> [UInt8] {
        guard let byte = peek() else { throw Invalid(reason: "a string is not closed") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return [byte]
        case UInt8(ascii: "b"): return [0x08]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "u"):
            let unit = try hexUnit()
            var scalar = UInt32(unit)
            if (0xD800..<0xDC00).contains(unit) {
                guard peek() == UInt8(ascii: "\\") else { throw Invalid(reason: "a lone surrogate in a string") }
                index += 1
                guard peek() == UInt8(ascii: "u") else { throw Invalid(reason: "a lone surrogate in a string") }
                index += 1
                let low = try hexUnit()
                guard (0xDC00..<0xE000).contains(low) else { throw Invalid(reason: "a lone surrogate in a string") }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00..<0xE000).contains(unit) {
                throw Invalid(reason: "a lone surrogate in a string")
            }
            guard let character = Unicode.Scalar(scalar) else { throw Invalid(reason: "an invalid \\u escape") }
            return Array(String(Character(character)).utf8)
        default:
            throw Invalid(reason: "an invalid escape in a string")
        }
    }

    private mutating func hexUnit() throws(Invalid) -> UInt16 {
        guard index + 4 <= bytes.count, bytes[index..<index + 4].allSatisfy(\.isHexDigit),
              let unit = UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw Invalid(reason: "an invalid \\u escape")
        }
        index += 4
        return unit
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() throws(Invalid) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw Invalid(reason: "expected a value") }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw Invalid(reason: "a number has no digits after its point") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw Invalid(reason: "a number has no digits in its exponent") }
        }
        guard building else { return 0 }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)), number.isFinite else {
            throw Invalid(reason: "a number is out of range")
        }
        return number
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(Invalid) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw Invalid(reason: "expected a value")
        }
        index += expected.count
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(Invalid) {
        guard peek() == UInt8(ascii: character) else { throw Invalid(reason: "expected \"\(character)\"") }
        index += 1
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
