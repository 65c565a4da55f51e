import NIOCore

/// multipart-kit 4.7.1 looks a header name's bytes up in a 128-entry table without a bounds check,
/// so a byte of 0x80 or more in a part's header name traps the process. Until it checks, every
/// part's header names are checked here first (header values, such as UTF-8 file names, may be
/// anything the parser takes).
enum MultipartHeaderNames {
    static func areASCII(in buffer: ByteBuffer, boundary: String) -> Bool {
        let delimiter = Array("--\(boundary)".utf8)
        return buffer.withUnsafeReadableBytes { body in
            var index = 0
            func find(_ needle: [UInt8], from start: Int) -> Int? {
                guard let first = needle.first, needle.count <= body.count else { return nil }
                var candidate = start
                while candidate <= body.count - needle.count {
                    if body[candidate] == first, needle.indices.allSatisfy({ body[candidate + $0] == needle[$0] }) { return candidate }
                    candidate += 1
                }
                return nil
            }
            let lineEnd: [UInt8] = [0x0D, 0x0A]
            while let start = find(delimiter, from: index) {
                guard let headers = find(lineEnd, from: start + delimiter.count) else { return true }
                var line = headers + 2
                while let end = find(lineEnd, from: line), end > line {
                    for offset in line..<end {
                        let byte = body[offset]
                        if byte == UInt8(ascii: ":") { break }
                        if byte >= 0x80 { return false }
                    }
                    line = end + 2
                }
                index = line
            }
            return true
        }
    }
}
