import PostgresNIO

/// Singleton jobs (News' feed poller): one process of the log leads a job at a time, by holding a
/// session-level advisory lock on a connection of its own, and another takes over when that
/// connection (the process, or its network) goes.
extension PostgresSharedLog {
    static let leadershipRetry = Duration.seconds(2)

    public func leading(_ job: String, _ body: @escaping @Sendable () async throws -> Void) async throws {
        let lock = Self.lockKey(job)
        while !Task.isCancelled {
            let pool = try? await primary.current()
            do {
                guard let pool else { throw PostgresLogError.unreachable(location: location, reason: "no server to lead on") }
                let finished = try await pool.client.withConnection { connection in
                    try await lead(lock, job: job, on: connection, body)
                }
                if finished { return }
            } catch let error where Self.unavailability(error) == nil && !(error is CancellationError) {
                throw error
            } catch {
                if let pool, Self.unavailability(error) != nil { primary.lost(pool) }
                reporter.warning("lost or could not take the lead", metadata: ["job": "\(job)", "error": "\(error)"])
            }
            try? await Task.sleep(for: Self.leadershipRetry)
        }
    }

    /// Runs `body` if this connection takes `lock` (a session lock: released with the connection),
    /// checking the connection every `leadershipRetry` and cancelling `body` when it fails; the lock is
    /// given back before the connection returns to the pool. Whether `body` ran to its end.
    private func lead(_ lock: Int64, job: String, on connection: PostgresConnection, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        var taken = false
        for try await got in try await connection.query("SELECT pg_try_advisory_lock(\(lock))", logger: logger).decode(Bool.self) { taken = got }
        guard taken else { return false }
        reporter.notice("leading", metadata: ["job": "\(job)"])
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await body() }
                group.addTask { [logger] in
                    while true {
                        try await Task.sleep(for: Self.leadershipRetry)
                        try await connection.query("SELECT 1", logger: logger)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(lock))", logger: logger)
            throw error
        }
        try await connection.query("SELECT pg_advisory_unlock(\(lock))", logger: logger)
        return true
    }

    /// A job's advisory lock: FNV-1a of its name, apart from the log's own locks.
    static func lockKey(_ job: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "job:\(job)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int64(bitPattern: hash)
    }
}
