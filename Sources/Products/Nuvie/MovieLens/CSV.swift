/// RFC 4180 rows: comma-separated fields, double-quoted when they hold commas, quotes or newlines.
public enum CSV {
    public static func rows(_ text: String) -> [[String]] {
        numberedRows(text).map(\.fields)
    }

    /// Each row with the line of the file it starts on (1 for the first).
    public static func numberedRows(_ text: String) -> [(line: Int, fields: [String])] {
        var rows: [(line: Int, fields: [String])] = []
        var line = 1, rowStart = 1
        var row: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var iterator = Array(text.utf8).makeIterator()
        var pending: UInt8? = nil

        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while let byte = pending ?? iterator.next() {
            pending = nil
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    let next = iterator.next()
                    if next == UInt8(ascii: "\"") { field.append(byte) } else { inQuotes = false; pending = next }
                } else {
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inQuotes = true
            case UInt8(ascii: ","): endField()
            case UInt8(ascii: "\r"): break
            case UInt8(ascii: "\n"):
                endField()
                rows.append((rowStart, row))
                row = []
                rowStart = line
            default: field.append(byte)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            endField()
            rows.append((rowStart, row))
        }
        return rows
    }
}
