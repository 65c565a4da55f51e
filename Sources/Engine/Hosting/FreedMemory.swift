#if canImport(Glibc)
import Glibc
#endif
import EventLog
import ServiceLifecycle

/// Hands memory the process no longer uses back to the system. glibc keeps what a burst freed (a
/// demo import, a fold, a model training) in its arenas: measured on a first start of Nuvie's demo,
/// 56 MB of the 109 MB of anonymous memory was free and still resident (BENCHMARKS.md, issue 18).
/// And the log's pages a fold has read stay mapped: 128 MB after 240,000 ratings on the demo.
enum FreedMemory {
    static let interval = Duration.seconds(10)

    #if canImport(Glibc)
    /// glibc's `malloc_trim`, looked up by name once: a GNU extension that Swift's Glibc module does
    /// not export.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }
    #endif

    static func release(_ log: EventLog) {
        log.releaseMappedPages()
        #if canImport(Glibc)
        _ = mallocTrim?(0)
        #endif
    }

    /// Releases now, then every `interval`, until a graceful shutdown or cancellation.
    static func releasePeriodically(_ log: EventLog) async {
        release(log)
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)
                release(log)
            }
        }
    }
}
