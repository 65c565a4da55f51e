/// RFC 4180 rows: comma-separated fields, double-quoted when they hold commas, quotes or newlines.
public enum CSV {
    public static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
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
                rows.append(row)
                row = []
            default: field.append(byte)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            endField()
            rows.append(row)
        }
        return rows
    }
}
