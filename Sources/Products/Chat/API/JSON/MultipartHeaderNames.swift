import NIOCore

/// multipart-kit 4.7.1 looks a header name's bytes up in a 128-entry table without a bounds check,
/// so a byte of 0x80 or more in a part's header name traps the process. Until it checks, the body is
/// first read here through the parser's own states (`MultipartParser`: its preamble's match of the
/// first delimiter, a delimiter inside a body only after a CR, values to their CR, an empty line
/// ending the headers), building nothing: a copy of where the parser would be, not a second reading
/// of what a part is. Where the parser would throw, the answer is true: it refuses the body itself.
enum MultipartHeaderNames {
    private enum State {
        case preamble(matched: Int)
        case delimited
        case lineFeed(then: AfterLineFeed)
        case name(empty: Bool)
        case value
        case body
        case delimiter(matched: Int)
    }

    private enum AfterLineFeed { case name, body }

    static func areASCII(in buffer: ByteBuffer, boundary: String) -> Bool {
        let delimiter = Array("\r\n--\(boundary)".utf8)
        return buffer.withUnsafeReadableBytes { body in
            var state = State.preamble(matched: 0)
            for byte in body {
                switch state {
                case .preamble(let matched):
                    let next = if matched == 0, byte == delimiter[2] { 3 }  // the parser lets the first delimiter come without its CRLF
                        else if byte == delimiter[matched] { matched + 1 }
                        else if matched > 0, byte == delimiter[0] { 1 }
                        else { 0 }
                    state = next == delimiter.count ? .delimited : .preamble(matched: next)
                case .delimited:
                    guard byte == 0x0D else { return true }  // the closing `--` (the rest is ignored), or a syntax error
                    state = .lineFeed(then: .name)
                case .lineFeed(let then):
                    guard byte == 0x0A else { return true }
                    state = then == .name ? .name(empty: true) : .body
                case .name(let empty):
                    if byte == UInt8(ascii: ":"), !empty { state = .value }
                    else if byte == 0x0D, empty { state = .lineFeed(then: .body) }
                    else if byte >= 0x80 { return false }
                    else { state = .name(empty: false) }
                case .value:
                    if byte == 0x0D { state = .lineFeed(then: .name) }
                case .body:
                    if byte == delimiter[0] { state = .delimiter(matched: 1) }
                case .delimiter(let matched):
                    state = if byte == delimiter[matched] { matched + 1 == delimiter.count ? .delimited : .delimiter(matched: matched + 1) }
                        else if byte == delimiter[0] { .delimiter(matched: 1) }
                        else { .body }
                }
            }
            return true
        }
    }
}
