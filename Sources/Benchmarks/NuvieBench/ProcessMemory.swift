import Foundation

/// A process's resident memory from `/proc/<pid>/status`, in kilobytes.
struct ProcessMemory: CustomStringConvertible {
    var total = 0, anonymous = 0, files = 0

    static func read(pid: Int32) -> ProcessMemory {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return ProcessMemory() }
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return ProcessMemory(total: field("VmRSS"), anonymous: field("RssAnon"), files: field("RssFile"))
    }

    var description: String {
        String(format: "%.0f MB (anonymous %.0f MB, files %.0f MB)", Double(total) / 1024, Double(anonymous) / 1024, Double(files) / 1024)
    }
}
