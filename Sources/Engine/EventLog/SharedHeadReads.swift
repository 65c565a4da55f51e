/// Reads of the shared log's head, one at a time. A caller shares the first read that begins after
/// it asked, with every caller that asked before that read began: each gets a head at least as new
/// as the log was when it asked, and however many ask at once (every token a node does not know
/// asks), the server sees at most one of these queries in flight. A caller cancelled meanwhile
/// stops waiting at once.
actor SharedHeadReads {
    /// The read the callers asking now will share; it begins once the one before it has ended.
    private var next: Task<UInt64, any Error>?
    private var last: Task<UInt64, any Error>?

    /// The head as `read` finds it, by a read begun after this call (`read` is the one of the caller
    /// who found no read waiting to begin: every caller passes the same).
    func current(_ read: @escaping @Sendable () async throws -> UInt64) async throws -> UInt64 {
        if let next { return try await Self.value(of: next) }
        let before = last
        let task = Task {
            _ = await before?.result
            await began()
            return try await read()
        }
        next = task
        last = task
        return try await Self.value(of: task)
    }

    /// The read's head, or `CancellationError` at once when the caller is cancelled: the read goes
    /// on for the callers who share it.
    private nonisolated static func value(of read: Task<UInt64, any Error>) async throws -> UInt64 {
        let outcome = FirstOutcome<Result<UInt64, any Error>>()
        Task { outcome.settle(await read.result) }
        return try await withTaskCancellationHandler {
            try await outcome.value().get()
        } onCancel: {
            outcome.settle(.failure(CancellationError()))
        }
    }

    private func began() {
        next = nil
    }
}
