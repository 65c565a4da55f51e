import NIOConcurrencyHelpers

/// Decisions on one stream take turns in this process: a second waits for the first's append to be
/// recorded, then decides against it. Racing instead, both decide against the same version, one loses
/// and retries after the next group commit, and with four or more at once on one stream a decision
/// could lose five times running and be refused (one in 100,000 of one user's ratings on 64
/// connections, BENCHMARKS.md). Writers in other processes are still met by the log's version check.
final class StreamTurns: Sendable {
    /// The streams whose turn is taken, with who waits for each, in order.
    private let queues = NIOLockedValueBox<[String: [CheckedContinuation<Void, Never>]]>([:])

    func inTurn<T>(on stream: String, _ body: () async throws -> T) async throws -> T {
        await take(stream)
        defer { handOn(stream) }
        return try await body()
    }

    private func take(_ stream: String) async {
        let free = queues.withLockedValue { queues in
            guard queues[stream] == nil else { return false }
            queues[stream] = []
            return true
        }
        guard !free else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let freedMeanwhile = queues.withLockedValue { queues in
                guard queues[stream] != nil else {
                    queues[stream] = []
                    return true
                }
                queues[stream]?.append(continuation)
                return false
            }
            if freedMeanwhile { continuation.resume() }
        }
    }

    /// Gives the turn to the first waiting, or frees the stream.
    private func handOn(_ stream: String) {
        let next = queues.withLockedValue { queues -> CheckedContinuation<Void, Never>? in
            guard var waiting = queues[stream], !waiting.isEmpty else {
                queues[stream] = nil
                return nil
            }
            let next = waiting.removeFirst()
            queues[stream] = waiting
            return next
        }
        next?.resume()
    }
}
