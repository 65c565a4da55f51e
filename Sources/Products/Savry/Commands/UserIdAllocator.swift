import EventLog
import SavryDomain

/// Hands out user ids above every id already in the log. A clash with a concurrent registration is
/// caught by the `noStream` expectation on the new user's stream, and the caller asks again.
actor UserIdAllocator {
    private let log: EventLog
    private var highest: Int64?

    init(log: EventLog) {
        self.log = log
    }

    func next() throws -> Int64 {
        let current = try highest ?? scanHighest()
        highest = current + 1
        return current + 1
    }

    /// Forgets what it knew, after a clash showed another writer took ids.
    func reset() {
        highest = nil
    }

    private func scanHighest() throws -> Int64 {
        try log.streamIds(withPrefix: SavryStreams.userPrefix)
            .compactMap { Int64($0.dropFirst(SavryStreams.userPrefix.count)) }
            .max() ?? 0
    }
}
