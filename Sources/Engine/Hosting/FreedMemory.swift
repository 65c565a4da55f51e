#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import EventLog
import Metrics
import ReadModels
import ServiceLifecycle

/// Hands memory the process no longer uses back to the system. glibc keeps what a burst freed (a
/// demo import, a fold, a model training) in its arenas: measured on a first start of Nuvie's demo,
/// 56 MB of the 109 MB of anonymous memory was free and still resident (BENCHMARKS.md, issue 18).
/// And the log's pages a fold has read stay mapped: 128 MB after 240,000 ratings on the demo. A long
/// catch-up releases them itself, batch by batch (`ProjectionRunner.catchUp`).
public enum FreedMemory {
    /// Mapped pages are released every tick: a heavy write load maps about 4 MB of new events a
    /// second, and unmapping costs a read of `/proc/self/maps` and two system calls.
    static let tick = Duration.seconds(2)
    /// The heap is trimmed every fifth tick: `malloc_trim` walks the arenas under their locks.
    static let ticksPerTrim = 5

    #if canImport(Glibc)
    /// glibc's `malloc_trim`, looked up by name once: a GNU extension that Swift's Glibc module does
    /// not export.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }

    /// glibc's `mallopt`, looked up as `malloc_trim` is.
    private static let mallocOption: (@convention(c) (Int32, Int32) -> Int32)? = dlsym(dlopen(nil, RTLD_NOW), "mallopt").map {
        unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }
    #endif

    /// At most two malloc arenas (`M_ARENA_MAX`), where glibc allows eight per core: each arena keeps
    /// what its threads freed, and the cooperative pool's threads spread a server's allocations over
    /// all of them. Measured on Nuvie's demo (`nuvie-bench memory`, BENCHMARKS.md): 9–10 MB less
    /// anonymous memory under load.
    ///
    /// And every allocation of 1 MiB or more mapped on its own (`M_MMAP_THRESHOLD`), so that freeing
    /// it gives it back: glibc raises its threshold each time such a block is freed, up to 32 MiB,
    /// after which a model training's or a fold's large temporary arrays come from the heap and stay
    /// resident. Measured on Nuvie's demo: 4–9 MB less at every phase's peak (BENCHMARKS.md).
    ///
    /// `MALLOC_ARENA_MAX` or `MALLOC_MMAP_THRESHOLD_` in the environment, when set, is left to rule.
    public static func configureHeap() {
        #if canImport(Glibc)
        let environment = ProcessInfo.processInfo.environment
        let arenaMaximum: Int32 = -8, mmapThreshold: Int32 = -3
        if environment["MALLOC_ARENA_MAX"] == nil { _ = mallocOption?(arenaMaximum, 2) }
        if environment["MALLOC_MMAP_THRESHOLD_"] == nil { _ = mallocOption?(mmapThreshold, 1 << 20) }
        #endif
    }

    static func trimHeap() {
        #if canImport(Glibc)
        _ = mallocTrim?(0)
        #endif
    }

    /// `engine_sqlite_memory_bytes`: SQLite's share of the heap (its page caches fill to their bounds
    /// as the read models grow), which the soaks set beside RssAnon to tell caches filling from a leak.
    static func recordSQLiteMemory() {
        Gauge(label: "engine_sqlite_memory_bytes").record(Double(SQLiteMemory.bytesInUse))
    }

    /// Where every log of the process releases, one at a time: the work blocks (a file read, locks,
    /// system calls), so it runs neither on the cooperative pool (requests) nor on `BlockingWork`'s
    /// (folds), and a process with many logs (a test run holds ~200) queues them here instead of
    /// taking every thread.
    private static let queue = DispatchQueue(label: "freed-memory", qos: .utility)

    private static func release(_ log: EventLog, trimming: Bool) async {
        _ = try? await BlockingWork.run(on: queue) {
            log.releaseMappedPages()
            if trimming {
                trimHeap()
                recordSQLiteMemory()
            }
        }
    }

    /// Releases both now, then on every tick, until a graceful shutdown or cancellation.
    static func releasePeriodically(_ log: EventLog) async {
        await release(log, trimming: true)
        try? await cancelWhenGracefulShutdown {
            for tick in 1... {
                try await Task.sleep(for: self.tick)
                await release(log, trimming: tick % ticksPerTrim == 0)
            }
        }
    }
}
