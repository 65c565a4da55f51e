import Foundation

/// A process's resident memory from `/proc/<pid>/status`, in kilobytes.
struct ProcessMemory: CustomStringConvertible {
    var total = 0, anonymous = 0, files = 0
    /// VmHWM: the most the process has held resident since it started, as the kernel counts it.
    var highWater = 0

    static func read(pid: Int32) -> ProcessMemory {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return ProcessMemory() }
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return ProcessMemory(total: field("VmRSS"), anonymous: field("RssAnon"), files: field("RssFile"), highWater: field("VmHWM"))
    }

    var description: String {
        String(format: "%.0f MB (anonymous %.0f MB, files %.0f MB)", Double(total) / 1024, Double(anonymous) / 1024, Double(files) / 1024)
    }

    /// Sets VmHWM back to the current RSS (`clear_refs` 5), so the next reading is one phase's peak.
    static func resetHighWater(pid: Int32) {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/\(pid)/clear_refs"))
    }
}
