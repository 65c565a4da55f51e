/// Rows of an input file that are not what they claim to be, each with where it is and why: what
/// `nuvie eval` and `nuvie import movielens` report and never learn from or import.
public struct RejectedRows: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var file: String
        public var line: Int
        public var reason: String
        public var text: String
    }

    /// How many rows are kept to show; the rest are only counted.
    public static let shown = 20

    /// The first `shown` rejected rows.
    public private(set) var rows: [Row] = []
    public private(set) var count = 0

    public init() {}

    public var isEmpty: Bool { count == 0 }

    mutating func reject(file: String, line: Int, reason: String, text: String) {
        count += 1
        if rows.count < Self.shown { rows.append(Row(file: file, line: line, reason: reason, text: String(text.prefix(80)))) }
    }

    public mutating func append(_ other: RejectedRows) {
        for row in other.rows { reject(file: row.file, line: row.line, reason: row.reason, text: row.text) }
        count += other.count - other.rows.count
    }

    /// `file:line: reason: text` for each row shown, then how many more were rejected.
    public var report: String {
        var lines = rows.map { "\($0.file):\($0.line): \($0.reason): \($0.text)" }
        if count > rows.count { lines.append("… and \(count - rows.count) more rejected rows (\(count) in all)") }
        return lines.joined(separator: "\n")
    }
}

/// `--strict` and rows were rejected: nothing was learned or written.
public struct RowsRejected: Error, CustomStringConvertible {
    public var rejected: RejectedRows

    public init(_ rejected: RejectedRows) {
        self.rejected = rejected
    }

    public var description: String { "\(rejected.count) rows rejected (--strict: nothing was used):\n\(rejected.report)" }
}
