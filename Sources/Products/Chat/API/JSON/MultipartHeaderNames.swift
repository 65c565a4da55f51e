import NIOCore

/// multipart-kit 4.7.1 looks a header name's bytes up in a 128-entry table without a bounds check,
/// so a byte of 0x80 or more in a part's header name traps the process. Until it checks, every
/// part's header names are checked here first, read as the parser reads them: from each delimiter's
/// line end, each line's bytes up to its colon are a name, a line that never ends (cut off by the end
/// of the body or by the closing delimiter) included; values (such as UTF-8 file names) are skipped
/// to their carriage return, and an empty line ends the headers.
enum MultipartHeaderNames {
    static func areASCII(in buffer: ByteBuffer, boundary: String) -> Bool {
        let delimiter = Array("--\(boundary)".utf8)
        return buffer.withUnsafeReadableBytes { body in
            func find(_ needle: [UInt8], from start: Int) -> Int? {
                guard let first = needle.first, needle.count <= body.count else { return nil }
                var candidate = start
                while candidate <= body.count - needle.count {
                    if body[candidate] == first, needle.indices.allSatisfy({ body[candidate + $0] == needle[$0] }) { return candidate }
                    candidate += 1
                }
                return nil
            }
            var index = 0
            while let start = find(delimiter, from: index) {
                guard let headers = find([0x0D, 0x0A], from: start + delimiter.count) else { return true }
                var offset = headers + 2
                var inName = true
                scan: while offset < body.count {
                    let byte = body[offset]
                    switch (inName, byte) {
                    case (true, UInt8(ascii: ":")): inName = false
                    case (true, 0x0D): break scan  // the headers' end, or a name without a value, which the parser refuses
                    case (true, 0x80...): return false
                    case (false, 0x0D): (inName, offset) = (true, offset + 1)  // and its line feed
                    default: break
                    }
                    offset += 1
                }
                index = offset
            }
            return true
        }
    }
}
