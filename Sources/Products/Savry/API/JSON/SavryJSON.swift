import Foundation

/// The contract's JSON: camelCase keys as the Swift models spell them, slashes unescaped.
enum SavryJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
