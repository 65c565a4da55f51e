import Dispatch
import Foundation
import ReadModels
import NIOConcurrencyHelpers

/// Where password hashes are computed: a PBKDF2 of 600,000 rounds takes a core for a fifth of a
/// second, and run on the queue the folds use (`BlockingWork`), a burst of signups or failed logins
/// starved every other user's writes (which wait for their fold). Here hashing has threads of its
/// own, one fewer than the machine's cores (at least one), so folds and requests always keep a core,
/// and at most `waiting` hashes queue behind them: past that a request is refused at once with
/// `busy`, before it has done anything, instead of waiting for seconds.
public final class PasswordHashing: Sendable {
    /// No capacity now: nothing was done; retry later.
    public struct Busy: Error, Equatable {
        public let retryAfterSeconds: Int
    }

    private let queues: [DispatchQueue]
    private let capacity: Int
    private let admitted = NIOLockedValueBox<(inFlight: Int, next: Int)>((0, 0))

    public init(threads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1), waiting: Int = 16) {
        queues = (0..<max(1, threads)).map { DispatchQueue(label: "password-hashing-\($0)", qos: .userInitiated) }
        capacity = max(1, threads) + max(0, waiting)
    }

    /// Runs `work` on a hashing thread, or throws `Busy` without running it.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let queue: DispatchQueue? = admitted.withLockedValue { state in
            guard state.inFlight < capacity else { return nil }
            state.inFlight += 1
            state.next += 1
            return queues[state.next % queues.count]
        }
        guard let queue else { throw Busy(retryAfterSeconds: 1) }
        defer { admitted.withLockedValue { $0.inFlight -= 1 } }
        return try await BlockingWork.run(on: queue, work)
    }
}
