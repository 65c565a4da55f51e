import Foundation
import JSONText

/// Which files a message may carry: a few kinds, each checked against what its bytes are.
public enum AttachmentRules {
    public static let maximumFileBytes = 10 << 20
    public static let maximumFiles = 5

    /// The content types accepted, in lowercase.
    public static let acceptedTypes: Set<String> = [
        "text/plain", "text/markdown", "text/csv", "application/json",
        "application/pdf", "image/png", "image/jpeg", "image/gif", "image/webp", "image/heic",
    ]

    public static func isText(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType == "application/json"
    }

    private static func isPlainUTF8(_ contents: [UInt8]) -> Bool {
        !contents.contains(0) && String(validating: contents, as: UTF8.self) != nil
    }

    /// The file's type in lowercase, once its bytes are found to be what it claims: text is UTF-8
    /// without NUL (JSON also one JSON text, as RFC 8259 writes it), images and PDFs start with their signature.
    public static func validated(name: String, contentType raw: String, contents: [UInt8]) throws(ChatDomainError) -> String {
        let contentType = (raw.split(separator: ";").first.map(String.init) ?? "").trimmingWhitespace.lowercased()
        guard !name.isEmpty, name.utf8.count <= 255 else { throw .invalid(field: "files[]", reason: "each file needs a name of 1–255 bytes") }
        guard acceptedTypes.contains(contentType) else {
            throw .invalid(field: "files[]", reason: "\(name): \(contentType.isEmpty ? "no content type" : contentType) is not accepted; send \(acceptedTypes.sorted().joined(separator: ", "))")
        }
        guard !contents.isEmpty, contents.count <= maximumFileBytes else {
            throw .invalid(field: "files[]", reason: "\(name): a file must be 1 byte to \(maximumFileBytes >> 20) MB")
        }
        let fits: Bool = switch contentType {
        case "application/pdf": contents.starts(with: Array("%PDF-".utf8))
        case "image/png": contents.starts(with: [0x89, 0x50, 0x4E, 0x47])
        case "image/jpeg": contents.starts(with: [0xFF, 0xD8, 0xFF])
        case "image/gif": contents.starts(with: Array("GIF8".utf8))
        case "image/webp": contents.count > 12 && contents[8..<12].elementsEqual(Array("WEBP".utf8))
        case "image/heic": contents.count > 12 && contents[4..<8].elementsEqual(Array("ftyp".utf8))
        case "application/json": (try? StrictJSON.validate(contents)) != nil // refuses invalid UTF-8 and NUL itself
        default: isPlainUTF8(contents) // total: a switch over strings; the other types are text
        }
        guard fits else { throw .invalid(field: "files[]", reason: "\(name): its contents are not \(contentType)") }
        return contentType
    }
}
