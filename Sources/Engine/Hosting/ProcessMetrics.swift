import Foundation
import Metrics
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process's own figures under Prometheus' `process_…` names, read from `/proc` as `/metrics` is
/// asked: its memory (and the most it has held, VmHWM), CPU, threads, descriptors and start.
enum ProcessMetrics {
    private static let cpuCounted = Mutex(0.0)

    static func record() {
        let memory = ProcessStatus.kilobytes(["VmRSS", "VmHWM", "VmSize"])
        for (field, name) in [("VmRSS", "process_resident_memory_bytes"), ("VmHWM", "process_resident_memory_max_bytes"), ("VmSize", "process_virtual_memory_bytes")] {
            if let kilobytes = memory[field] { Gauge(label: name).record(Double(kilobytes) * 1024) }
        }
        // /proc/self/stat's fields after the command's name, which may hold spaces, in parentheses.
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
           let fields = stat.split(separator: ")").last?.split(separator: " ").compactMap({ Double($0) }), fields.count > 18 {
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            // The state (the 3rd field) is the only one not a number: fields[0] is the 4th, so utime
            // (the 14th) is fields[10].
            let (userTicks, systemTicks, threads, startTicks) = (fields[10], fields[11], fields[16], fields[18])
            let cpu = (userTicks + systemTicks) / ticks
            let unseen = cpuCounted.withLock { counted in
                defer { counted = max(counted, cpu) }
                return max(0, cpu - counted)
            }
            FloatingPointCounter(label: "process_cpu_seconds_total").increment(by: unseen)
            Gauge(label: "process_threads").record(threads)
            if let boot = bootTime { Gauge(label: "process_start_time_seconds").record(boot + startTicks / ticks) }
        }
        Gauge(label: "process_open_fds").record(Double(openDescriptors))
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 { Gauge(label: "process_max_fds").record(Double(limit.rlim_cur)) }
    }

    private static let bootTime: Double? = {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        return stat.split(separator: "\n").first { $0.hasPrefix("btime ") }.flatMap { Double($0.dropFirst("btime ".count)) }
    }()

    /// Counted with readdir: Foundation's listing of /proc/self/fd reads past a directory entry's end.
    private static var openDescriptors: Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { count += 1 }
        }
        return count - 1  // this listing's own
    }
}
