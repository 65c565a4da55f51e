import Foundation
import ProductHosting

/// A process's resident memory from `/proc/<pid>/status`, in kilobytes.
struct ProcessMemory: CustomStringConvertible {
    var total = 0, anonymous = 0, files = 0
    /// VmHWM: the most the process has held resident since it started, as the kernel counts it.
    var highWater = 0

    static func read(pid: Int32) -> ProcessMemory {
        let kilobytes = ProcessStatus.kilobytes(["VmRSS", "RssAnon", "RssFile", "VmHWM"], pid: "\(pid)")
        return ProcessMemory(
            total: kilobytes["VmRSS"] ?? 0, anonymous: kilobytes["RssAnon"] ?? 0, files: kilobytes["RssFile"] ?? 0, highWater: kilobytes["VmHWM"] ?? 0
        )
    }

    var description: String {
        String(format: "%.0f MB (anonymous %.0f MB, files %.0f MB)", Double(total) / 1024, Double(anonymous) / 1024, Double(files) / 1024)
    }

    /// Sets VmHWM back to the current RSS (`clear_refs` 5), so the next reading is one phase's peak.
    static func resetHighWater(pid: Int32) {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/\(pid)/clear_refs"))
    }
}
