import Dispatch

/// Where blocking work runs: SQLite folds, LMDB scans, rebuilds, model training. Swift's cooperative
/// pool has one thread per core (two here), so a fold or a training holding one for a second stalls
/// half of every request in flight (BENCHMARKS.md records such a stall). This queue's threads are
/// Dispatch's, not the pool's.
public enum BlockingWork {
    static let queue = DispatchQueue(label: "blocking-work", qos: .utility, attributes: .concurrent)
    /// Runs `work` on the blocking queue and waits for it without holding a cooperative thread.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(on: queue, work)
    }

    /// Runs `work` on `queue` (one with a bound of its own: password hashing, memory release) and
    /// waits for it without holding a cooperative thread.
    public static func run<T: Sendable>(on queue: DispatchQueue, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Starts `work` now, on a serial queue of its own, for work a synchronous caller (a fold, on
    /// `queue`) collects later: the next batch it prefetches. Not on `queue`, nor on any concurrent
    /// queue: those share Dispatch's pool for their QoS, which is as wide as the machine has cores,
    /// and when every thread of it is a fold waiting for its prefetch, the prefetch never starts
    /// until Dispatch adds a thread (seen: every fold and every request waiting on one stalled
    /// 20–30 s, in a test run with dozens of servers' runners in one process). A serial queue runs
    /// on Dispatch's overcommitting pool, which starts a thread whenever none is free; this work
    /// waits for nothing, so those threads always finish.
    static func start(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue(label: "blocking-work-started", qos: .utility).async(execute: work)
    }
}
