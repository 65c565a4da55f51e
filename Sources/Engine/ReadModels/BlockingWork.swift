import Dispatch

/// Where blocking work runs: SQLite folds, LMDB scans, rebuilds, model training. Swift's cooperative
/// pool has one thread per core (two here), so a fold or a training holding one for a second stalls
/// half of every request in flight (BENCHMARKS.md records such a stall). This queue's threads are
/// Dispatch's, not the pool's.
public enum BlockingWork {
    static let queue = DispatchQueue(label: "blocking-work", qos: .utility, attributes: .concurrent)

    /// Runs `work` on the blocking queue and waits for it without holding a cooperative thread.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Starts `work` on the blocking queue now; for work a synchronous caller collects later.
    static func start(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}
