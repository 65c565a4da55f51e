import Dispatch
import Foundation
import ReadModels
import NIOConcurrencyHelpers

/// Where password hashes are computed: a PBKDF2 of 600,000 rounds takes a core for a fifth of a
/// second, and run on the queue the folds use (`BlockingWork`), a burst of signups or failed logins
/// starved every other user's writes (which wait for their fold). Here hashing has threads of its
/// own, one fewer than the machine's cores (at least one), so folds and requests always keep a core,
/// and at most `waiting` hashes queue behind them: past that a request is refused at once with
/// `busy`, before it has done anything, instead of waiting for seconds. New passwords (signups,
/// rehashes) may take only the places not kept for checking one: a flood of signups from anyone
/// must not refuse every user's login.
public final class PasswordHashing: Sendable {
    public enum Purpose: Sendable {
        /// A password checked against its hash (a login, a re-authentication).
        case check
        /// A new hash (a signup, a rehash).
        case newHash
    }

    /// No capacity now: nothing was done; retry later.
    public struct Busy: Error, Equatable {
        public let retryAfterSeconds: Int
    }

    private let queues: [DispatchQueue]
    private let capacity: Int
    private let keptForChecks: Int
    private let admitted = NIOLockedValueBox<(inFlight: Int, newHashes: Int, next: Int)>((0, 0, 0))

    public init(threads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1), waiting: Int = 16) {
        queues = (0..<max(1, threads)).map { DispatchQueue(label: "password-hashing-\($0)", qos: .userInitiated) }
        capacity = max(1, threads) + max(0, waiting)
        keptForChecks = capacity / 2
    }

    /// Runs `work` on a hashing thread, or throws `Busy` without running it.
    public func run<T: Sendable>(_ purpose: Purpose, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let queue: DispatchQueue? = admitted.withLockedValue { state in
            guard state.inFlight < capacity else { return nil }
            if purpose == .newHash {
                guard state.newHashes < capacity - keptForChecks else { return nil }
                state.newHashes += 1
            }
            state.inFlight += 1
            state.next += 1
            return queues[state.next % queues.count]
        }
        guard let queue else { throw Busy(retryAfterSeconds: 1) }
        defer {
            admitted.withLockedValue { state in
                state.inFlight -= 1
                if purpose == .newHash { state.newHashes -= 1 }
            }
        }
        return try await BlockingWork.run(on: queue, work)
    }
}
