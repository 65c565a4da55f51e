import EventLog

/// Hands out user ids above every id already in the log, read from the names of the user streams
/// (`<prefix><id>`). A clash with a concurrent registration is caught by the `noStream` expectation
/// on the new user's stream, and the caller asks again.
actor UserIdAllocator {
    private let log: EventLog
    private let streamPrefix: String
    private var highest: Int64?

    init(log: EventLog, userStreamPrefix: String) {
        self.log = log
        streamPrefix = userStreamPrefix
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
        try log.streamIds(withPrefix: streamPrefix).compactMap { Int64($0.dropFirst(streamPrefix.count)) }.max() ?? 0
    }
}
