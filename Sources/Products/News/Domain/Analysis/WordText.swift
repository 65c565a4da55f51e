import Foundation

/// A text as whole phrases are looked for in it: every character but a letter, a digit or one of
/// `kept` made a space, and the whole between spaces. `holds(phrase)` then finds `" \(phrase) "`
/// byte for byte. Spaces here stand alone (a character that is not kept becomes one whole space),
/// so for an ASCII phrase that finds what `String.contains` does, but for a text that writes `K` as
/// U+212A KELVIN SIGN, which only canonical equivalence reads as `K`. Foundation's locale-aware
/// search, used before, took two thirds of a bulk fold's time.
struct WordText {
    let spaced: String
    private let bytes: [UInt8]
    private let isPlainASCII: Bool
    /// Every word of the text. A phrase can stand here only if its first word does: most are ruled
    /// out by one lookup.
    let words: Set<Substring>

    /// ASCII without CR (CR LF is one character): such a text maps byte for byte as it does by
    /// character.
    static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") }
    }

    init(_ text: String, keeping kept: String, lowercased: Bool) {
        isPlainASCII = Self.isPlainASCII(text)
        if isPlainASCII {
            var mapped: [UInt8] = [UInt8(ascii: " ")]
            mapped.reserveCapacity(text.utf8.count + 2)
            for byte in text.utf8 {
                let letter = lowercased && Self.upper.contains(byte) ? byte | 0x20 : byte
                let keep = Self.upper.contains(letter) || Self.lower.contains(letter) || Self.digits.contains(letter) || kept.utf8.contains(letter)
                mapped.append(keep ? letter : UInt8(ascii: " "))
            }
            mapped.append(UInt8(ascii: " "))
            bytes = mapped
            spaced = String(decoding: mapped, as: UTF8.self)
        } else {
            let source = lowercased ? text.lowercased() : text
            spaced = " " + String(source.map { $0.isLetter || $0.isNumber || kept.contains($0) ? $0 : " " }) + " "
            bytes = Array(spaced.utf8)
        }
        words = Set(spaced.split(separator: " "))
    }

    func holds(_ phrase: String) -> Bool {
        // An accented letter has no ASCII spelling: such a phrase is not in an ASCII text.
        guard phrase.utf8.allSatisfy({ $0 < 0x80 }) else { return !isPlainASCII && spaced.contains(" \(phrase) ") }
        guard words.contains(phrase.prefix { $0 != " " }) else { return false }
        let needle = Array(" \(phrase) ".utf8)
        return bytes.withUnsafeBufferPointer { text in
            needle.withUnsafeBufferPointer { needle in
                guard let start = text.baseAddress, let wanted = needle.baseAddress, text.count >= needle.count else { return false }
                // The needle begins with a space, as every word here does: its first letter picks the places to compare.
                let letter = needle[1]
                for offset in 0...(text.count - needle.count) where text[offset + 1] == letter && text[offset] == needle[0] {
                    if memcmp(start + offset, wanted, needle.count) == 0 { return true }
                }
                return false
            }
        }
    }

    private static let upper = UInt8(ascii: "A")...UInt8(ascii: "Z")
    private static let lower = UInt8(ascii: "a")...UInt8(ascii: "z")
    private static let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
}
