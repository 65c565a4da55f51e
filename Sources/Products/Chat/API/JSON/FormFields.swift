import ChatDomain
import EventSourcing
import Foundation
import HTTPServing
import JSONText
import Hummingbird
import MultipartKit
import NIOCore
import ReadModels

/// A request's fields, from a JSON object or a multipart form, read by name. Unknown fields are
/// ignored, as DRF's parsers ignore them. A file is a multipart part with a filename.
struct FormFields {
    enum Value {
        case json(JSONValue)
        case text(String)
    }

    struct File {
        var name: String
        var contentType: String
        var contents: [UInt8]
    }

    private(set) var values: [String: Value] = [:]
    private(set) var files: [File] = []

    /// A JSON object body (`application/json`); no body at all, whatever its type, is no fields, as
    /// DRF reads it.
    static func json(_ request: Request, context: some RequestContext) async throws -> FormFields {
        let buffer = try await request.body.collect(atMost: AttachmentLimits.maximumJSONBytes)
        guard buffer.readableBytes > 0 else { return FormFields() }
        guard MediaType.of(request) == "application/json" else { throw ChatAPIError.unsupportedMediaType }
        return try json(buffer)
    }

    /// JSON, `multipart/form-data` with files, or a URL-encoded form: the contract's send-chat takes
    /// all three (`JSONParser, MultiPartParser, FormParser`).
    static func jsonOrForm(_ request: Request, context: some RequestContext) async throws -> FormFields {
        switch MediaType.of(request) {
        case "application/json":
            return try json(try await request.body.collect(atMost: AttachmentLimits.maximumJSONBytes))
        case "application/x-www-form-urlencoded":
            return try urlEncoded(try await request.body.collect(atMost: AttachmentLimits.maximumJSONBytes))
        case "multipart/form-data":
            guard let boundary = MediaType.parameter("boundary", of: request), !boundary.isEmpty else {
                throw ChatAPIError.invalid("Content-Type", "multipart/form-data needs a boundary parameter")
            }
            let body = try await request.body.collect(atMost: AttachmentLimits.maximumRequestBytes)
            // Parsing up to 50 MB byte by byte is blocking work: not on the cooperative pool.
            return try await BlockingWork.run { try multipart(body, boundary: boundary) }
        default:
            // No body at all is no fields, whatever its type, as `json` reads it.
            if (try? await request.body.collect(atMost: 0)) != nil { return FormFields() }
            throw ChatAPIError.unsupportedMediaType
        }
    }

    private static func json(_ buffer: ByteBuffer) throws -> FormFields {
        guard buffer.readableBytes > 0 else { return FormFields() }
        let parsed: JSONValue
        do {
            parsed = try StrictJSON.parse(Array(buffer.readableBytesView))
        } catch {
            throw ChatAPIError(.badRequest, "parse_error", "JSON parse error - \(error.reason)", detail: error.reason)
        }
        guard case .object(let object) = parsed else {
            throw ChatAPIError(.badRequest, "parse_error", "JSON parse error - the body must be a JSON object", detail: "Send a JSON object")
        }
        var fields = FormFields()
        fields.values = object.mapValues(Value.json)
        return fields
    }

    private static func urlEncoded(_ buffer: ByteBuffer) throws -> FormFields {
        let malformed = ChatAPIError.invalid("form", "is not well-formed application/x-www-form-urlencoded UTF-8")
        guard let body = String(validating: buffer.readableBytesView, as: UTF8.self) else { throw malformed }
        var fields = FormFields()
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = parts[0], let value = parts.count > 1 ? parts[1] : "" else { throw malformed }
            fields.values[name] = .text(value)
        }
        return fields
    }

    private static func multipart(_ buffer: ByteBuffer, boundary: String) throws -> FormFields {
        var fields = FormFields()
        guard buffer.readableBytes > 0 else { return fields }
        var headers: [(String, String)] = []
        var body: [UInt8] = []
        var failure: ChatAPIError?
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in headers.append((name.lowercased(), value)) }
        parser.onBody = { chunk in body.append(contentsOf: chunk.readableBytesView) }
        parser.onPartComplete = {
            defer { headers = []; body = [] }
            let disposition = headers.first { $0.0 == "content-disposition" }?.1 ?? ""
            guard let name = MediaType.parameter("name", in: disposition) else {
                failure = failure ?? .invalid("multipart", "every part needs Content-Disposition: form-data; name=\"…\"")
                return
            }
            if let filename = MediaType.parameter("filename", in: disposition) {
                guard name == "files[]" else {
                    failure = failure ?? .invalid(name, "is a file: files are sent as files[]")
                    return
                }
                if StorableText.firstRefusedCharacter(in: filename) != nil {
                    failure = failure ?? .invalid("files[]", "a file name contains a control character")
                    return
                }
                let contentType = headers.first { $0.0 == "content-type" }?.1 ?? ""
                fields.files.append(File(name: filename, contentType: contentType, contents: body))
            } else if name == "files[]" {
                failure = failure ?? .invalid("files[]", "each file needs a name: filename=\"…\" in its Content-Disposition")
            } else {
                guard let text = String(validating: body, as: UTF8.self) else {
                    failure = failure ?? .invalid(name, "is not UTF-8 text")
                    return
                }
                fields.values[name] = .text(text)
            }
        }
        guard MultipartHeaderNames.areASCII(in: buffer, boundary: boundary) else {
            throw ChatAPIError.invalid("multipart", "a part's header name is not ASCII")
        }
        // The parser takes a body cut short as whole, leaving out the part it was in (a file, or the
        // session's id, so that the message went to a new session).
        guard endsWithCloseDelimiter(buffer, boundary: boundary) else {
            throw ChatAPIError.invalid("multipart", "is cut short: it does not end with the closing --\(boundary)--")
        }
        do {
            try parser.execute(buffer)
        } catch {
            throw ChatAPIError.invalid("multipart", "is not a well-formed multipart/form-data body")
        }
        if let failure { throw failure }
        return fields
    }

    /// Whether `buffer` ends with `--boundary--`, then at most line ends and spaces.
    private static func endsWithCloseDelimiter(_ buffer: ByteBuffer, boundary: String) -> Bool {
        let bytes = buffer.readableBytesView
        guard let last = bytes.lastIndex(where: { ![0x0D, 0x0A, 0x20, 0x09].contains($0) }) else { return false }
        let trimmed = bytes.prefix(through: last)
        let close = Array("--\(boundary)--".utf8)
        return trimmed.count >= close.count && trimmed.suffix(close.count).elementsEqual(close)
    }

    /// A string field: absent or null is nil; a JSON number is refused, and so is text with a control
    /// character other than tab, line feed and carriage return (`StorableText`): stored, it would
    /// come back cut at a NUL while the assistant had read all of it.
    func string(_ key: String) throws -> String? {
        switch values[key] {
        case nil, .json(.null): return nil
        case .text(let text), .json(.string(let text)):
            try Self.refuseControlCharacters(in: text, field: key)
            return text
        case .json: throw ChatAPIError.invalid(key, "must be a string")
        }
    }

    static func refuseControlCharacters(in text: String, field: String) throws {
        guard let bad = StorableText.firstRefusedCharacter(in: text) else { return }
        throw ChatAPIError.invalid(field, "contains the control character \(bad); only tab, line feed and carriage return are accepted")
    }

    /// A whole number: a JSON integer, or digits as text (a multipart field); absent, null or empty is nil.
    func integer(_ key: String) throws -> Int64? {
        switch values[key] {
        case nil, .json(.null), .text(""), .json(.string("")): return nil
        case .json(.number(let number)) where number.rounded() == number && abs(number) < 1e15: return Int64(number)
        case .text(let text), .json(.string(let text)):
            guard let number = Int64(text.trimmingCharacters(in: .whitespaces)) else { throw ChatAPIError.invalid(key, "must be a whole number") }
            return number
        case .json: throw ChatAPIError.invalid(key, "must be a whole number")
        }
    }
}

/// The media type of a request and its parameters.
enum MediaType {
    static func of(_ request: Request) -> String? {
        request.headers[.contentType]?.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces).lowercased()
    }

    static func parameter(_ name: String, of request: Request) -> String? {
        request.headers[.contentType].flatMap { parameter(name, in: $0) }
    }

    /// `name=value` or `name="value"` among a header's `;`-separated parameters.
    static func parameter(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            let value = pair[1]
            return value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
        }
        return nil
    }
}
