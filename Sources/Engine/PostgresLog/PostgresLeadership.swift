import PostgresNIO

/// Singleton jobs (News' feed poller): one process of the log leads a job at a time, by holding a
/// session-level advisory lock on a connection of its own, and another takes over when that
/// connection (the process, or its network) goes.
extension PostgresSharedLog {
    static let leadershipRetry = Duration.seconds(2)
    /// How long a check of the lead's connection may take before the lead is given up.
    static let leadershipCheck = Duration.seconds(5)
    /// How long a new leader waits before it starts the job: the longest a leader that lost its
    /// session takes to notice (its next check, and that check's time).
    static let handover = leadershipRetry + leadershipCheck

    public func leading(_ job: String, _ body: @escaping @Sendable () async throws -> Void) async throws {
        let lock = Self.lockKey(job)
        while !Task.isCancelled && !primary.isClosed {
            let pool = try? await primary.current()
            do {
                guard let pool else { throw PostgresLogError.unreachable(location: location, reason: "no server to lead on") }
                let finished = try await pool.client.withConnection { connection in
                    try await lead(lock, job: job, on: connection, body)
                }
                if finished { return }
            } catch let error where Self.unavailability(error) == nil && !(error is CancellationError) && !(error is LeadershipCheckTimedOut) {
                throw error
            } catch {
                if Task.isCancelled || primary.isClosed { return }
                // A check past its deadline on a server that may still answer leaves the pool to the next server check.
                if let pool, error is LeadershipCheckTimedOut || Self.unavailability(error) != nil {
                    primary.lost(pool, onlyTimedOut: error is LeadershipCheckTimedOut)
                }
                reporter.warning("lost or could not take the lead", metadata: ["job": "\(job)", "error": "\(error)"])
            }
            try? await Task.sleep(for: Self.leadershipRetry)
        }
    }

    /// Runs `body` if this connection takes `lock` (a session lock: released with the connection),
    /// checking the connection every `leadershipRetry` and cancelling `body` when it fails. `body`
    /// starts only after `handover`: a leader that lost its session (its server restarted, its
    /// network went) notices within that time and stops its job, so two run at once only when a job
    /// takes longer than that to stop once cancelled. Whether `body` ran to its end.
    private func lead(_ lock: Int64, job: String, on connection: PostgresConnection, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        let taken: Bool
        do {
            taken = try await answer("SELECT pg_try_advisory_lock(\(lock))", on: connection)
        } catch {
            // Taken or not, unknown: the session ends, and the lock with it if it was.
            try? await connection.close()
            throw error
        }
        guard taken else { return false }
        reporter.notice("leading", metadata: ["job": "\(job)"])
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await Task.sleep(for: Self.handover)
                    try await body()
                }
                group.addTask { [self] in
                    while true {
                        try await Task.sleep(for: Self.leadershipRetry)
                        _ = try await answer("SELECT true", on: connection)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            await release(lock, on: connection)
            reporter.notice("stopped leading", metadata: ["job": "\(job)"])
            throw error
        }
        await release(lock, on: connection)
        return true
    }

    /// Gives `lock` back, or, when that cannot be confirmed (the connection closed, no answer in
    /// time, the caller cancelled), ends the connection and its session's locks with it: the pool
    /// must never lend out a connection that still holds a job's lock, or no node would lead it again.
    private func release(_ lock: Int64, on connection: PostgresConnection) async {
        if (try? await answer("SELECT pg_advisory_unlock(\(lock))", on: connection)) != true {
            try? await connection.close()
        }
    }

    /// The one boolean `query` answers on `connection`; `unreachable` once the connection is closed
    /// (`requireOpen`), `LeadershipCheckTimedOut` once `leadershipCheck` has passed: a leader whose
    /// server restarted would otherwise wait for its check forever and lead on beside the node that
    /// took the lock next.
    private func answer(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> Bool {
        try connection.requireOpen(at: location, "the connection holding the lead")
        let answered = await withDeadline(Self.leadershipCheck) { [logger] () -> Result<Bool, any Error> in
            do {
                var value = false
                for try await answer in try await connection.query(query, logger: logger).decode(Bool.self) { value = answer }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        guard let answered else { throw LeadershipCheckTimedOut(location: location, deadline: Self.leadershipCheck) }
        return try answered.get()
    }

    /// A job's advisory lock: FNV-1a of its name, apart from the log's own locks.
    static func lockKey(_ job: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "job:\(job)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int64(bitPattern: hash)
    }
}

extension PostgresConnection {
    /// postgres-nio never answers a query sent on a connection its server closed: the query would
    /// wait forever. `what` names the connection in the error.
    func requireOpen(at location: String, _ what: String) throws {
        guard !isClosed else { throw PostgresLogError.unreachable(location: location, reason: "\(what) closed") }
    }

    /// Returns once the statement before it on this connection has committed. A statement's answer
    /// comes before its implicit COMMIT has finished (and so before a synchronous standby holds it): a
    /// wait for the standby cut short by the server's shutdown sends the answer and ends the
    /// connection. The next statement runs only after the commit.
    func waitForCommit(logger: Logger) async throws {
        _ = try await query("SELECT 1", logger: logger).collect()
    }
}

/// The connection holding a job's lead answered nothing within its deadline: the lead is given up,
/// the server perhaps only slow.
struct LeadershipCheckTimedOut: Error, CustomStringConvertible {
    var location: String
    var deadline: Duration
    var description: String { "the connection holding the lead at \(location) answered nothing within \(deadline)" }
}
