import EventLog

/// Hands out user ids above every id already in the log, read from the names of the user streams
/// (`<prefix><id>`), and above every user the key store knows (a log restored from before some
/// sign-ups must not give their ids, and keys, to someone else). A clash with a concurrent
/// registration is caught by the `noStream` expectation on the new user's stream, and the caller
/// asks again.
actor UserIdAllocator {
    private let log: EventLog
    private let personalData: any PersonalDataCipher
    private let streamPrefix: String
    private var highest: Int64?

    init(log: EventLog, personalData: any PersonalDataCipher, userStreamPrefix: String) {
        self.log = log
        self.personalData = personalData
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
        let inLog = try log.streamIds(withPrefix: streamPrefix).compactMap { Int64($0.dropFirst(streamPrefix.count)) }.max() ?? 0
        return max(inLog, try personalData.highestKnownUser())
    }
}
