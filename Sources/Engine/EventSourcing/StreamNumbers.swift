import EventLog

/// Hands out the numbers of new streams named `<prefix><number>` (users, a product's numbered
/// things), above every number already in the log and above `floor` (for users: every user the key
/// store knows, so that a log restored from before some sign-ups does not give their ids, and keys,
/// to someone else). On a shared log the number comes from the shared log, so nodes never hand out
/// the same one. A clash with a concurrent writer is still caught by the `noStream` expectation on
/// the new stream; the caller then calls `reset` and asks again.
public actor StreamNumbers {
    private let log: EventLog
    private let streamPrefix: String
    private let floor: @Sendable () throws -> Int64
    private var highest: Int64?

    public init(log: EventLog, streamPrefix: String, floor: @escaping @Sendable () throws -> Int64 = { 0 }) {
        self.log = log
        self.streamPrefix = streamPrefix
        self.floor = floor
    }

    public func next() async throws -> Int64 {
        let floor = try highest ?? scanHighest()
        if log.isShared, let number = try await log.sharedStreamNumber(streamPrefix, above: floor) {
            highest = max(highest ?? floor, number)
            return number
        }
        highest = floor + 1
        return floor + 1
    }

    /// Forgets what it knew, after a clash showed another writer took numbers.
    public func reset() {
        highest = nil
    }

    private func scanHighest() throws -> Int64 {
        let inLog = try log.streamIds(withPrefix: streamPrefix).compactMap { Int64($0.dropFirst(streamPrefix.count)) }.max() ?? 0
        return max(inLog, try floor())
    }
}
