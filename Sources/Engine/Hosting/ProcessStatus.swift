import Foundation

/// A process's `/proc/<pid>/status` memory lines, in kilobytes: what `/metrics` reports of its own
/// process and the memory benchmark of a server's.
public enum ProcessStatus {
    /// Each of `fields` (`VmRSS`, `VmHWM`…) the file has, by name; empty when it cannot be read.
    public static func kilobytes(_ fields: Set<String>, pid: String = "self") -> [String: Int] {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return [:] }
        var found: [String: Int] = [:]
        for line in status.split(separator: "\n") {
            // `VmRSS:\t  123456 kB`: padded to eight digits, so a larger value follows the tab at once.
            let words = line.split(whereSeparator: \.isWhitespace)
            guard words.count >= 2, words[0].hasSuffix(":") else { continue }
            let name = String(words[0].dropLast())
            if fields.contains(name), let value = Int(words[1]) { found[name] = value }
        }
        return found
    }
}
