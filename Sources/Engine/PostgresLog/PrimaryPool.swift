import Logging
import PostgresNIO
import NIOConcurrencyHelpers

/// A connection pool to the server of the log's URL that takes its writes. With one server the pool
/// is made once and reconnects by itself. With several and `target_session_attrs=read-write`, the
/// one not in recovery, looked for again whenever an operation could not reach the one in use: after a
/// failover, the standby promoted in the old primary's place.
final class PrimaryPool: Sendable {
    struct Pool: Sendable {
        let client: PostgresClient
        let server: PostgresLogLocation.Server
        fileprivate let running: Task<Void, Never>
        /// Declared when the pool is retired: what still waits on it is given up.
        let abandonment = Abandonment()
    }

    private enum State {
        case using(Pool)
        /// The pool in use failed (or none was made yet): the next operation looks for the server again.
        case lost(Pool?)
        case finding(Task<Pool, any Error>)
        /// `close` was called: no pool is made again.
        case closed
    }

    let location: PostgresLogLocation
    private let logger: Logger
    /// For postgres-nio: its pools' messages.
    private let connectionLogger: Logger
    private let state = NIOLockedValueBox(State.lost(nil))

    init(_ location: PostgresLogLocation, logger: Logger, connectionLogger: Logger) {
        self.location = location
        self.logger = logger
        self.connectionLogger = connectionLogger
    }

    /// The pool to the server that takes writes, looking for it first when the last one was lost.
    /// Throws `PostgresLogError` when no server will do.
    func current() async throws -> Pool {
        enum Next { case ready(Pool), wait(Task<Pool, any Error>), closed }
        let next = state.withLockedValue { state -> Next in
            switch state {
            case .using(let pool): return .ready(pool)
            case .finding(let task): return .wait(task)
            case .closed: return .closed
            case .lost(let previous):
                let task = Task { try await self.find(reusing: previous) }
                state = .finding(task)
                return .wait(task)
            }
        }
        switch next {
        case .ready(let pool): return pool
        case .wait(let task): return try await task.value
        case .closed: throw CancellationError()
        }
    }

    /// `pool` could not be used: the next operation looks for the server again. With one server, the
    /// pool is kept (it reconnects by itself). With several, it is retired, unless an operation only
    /// passed its deadline (`onlyTimedOut`): then it is kept until another server is chosen in its place
    /// (or none is), so that an operation on a primary that still answers gives up itself only.
    func lost(_ pool: Pool, onlyTimedOut: Bool) {
        let retiring = state.withLockedValue { state -> Bool in
            guard case .using(let inUse) = state, inUse.client === pool.client else { return false }
            let retire = location.servers.count > 1 && !onlyTimedOut
            state = .lost(retire ? nil : inUse)
            return retire
        }
        if retiring { Self.retire(pool) }
    }

    /// Gives up what still waits on `pool` (a pool waits for a server that is gone rather than failing,
    /// and a query on a connection its server closed may never end), to be retried on the server found
    /// next, then shuts it down.
    private static func retire(_ pool: Pool) {
        pool.abandonment.declare()
        pool.running.cancel()
    }

    /// The server in use, for `/health`; nil while none is.
    var server: PostgresLogLocation.Server? {
        state.withLockedValue { state in
            if case .using(let pool) = state { return pool.server }
            return nil
        }
    }

    /// After `close`: the loops that retry a lost server (leadership, the head's watch) end.
    var isClosed: Bool {
        state.withLockedValue { state in
            if case .closed = state { return true }
            return false
        }
    }

    func close() {
        state.withLockedValue { state in
            switch state {
            case .using(let pool), .lost(.some(let pool)): pool.running.cancel()
            case .finding(let task): task.cancel()
            case .lost(nil), .closed: break
            }
            state = .closed
        }
    }

    private func find(reusing previous: Pool?) async throws -> Pool {
        let pool: Pool
        do {
            let server = try await chooseServer(keeping: previous?.server)
            if let previous, previous.server == server {
                pool = previous
            } else {
                if let previous { Self.retire(previous) }
                let client = PostgresClient(configuration: location.configuration(for: server), backgroundLogger: connectionLogger)
                pool = Pool(client: client, server: server, running: Task { await client.run() })
                logger.notice("writing to the event log's server", metadata: ["server": "\(server)", "log": "\(location)"])
            }
        } catch {
            // With several servers, none taking writes means the one in use is gone or now a standby.
            let failover = location.servers.count > 1
            let closed = state.withLockedValue { state -> Bool in
                guard case .finding = state else { return true }
                state = .lost(failover ? nil : previous)
                return false
            }
            if let previous, failover || closed { Self.retire(previous) }
            throw error
        }
        // Closed meanwhile: the pool found is not kept running.
        let closed = state.withLockedValue { state -> Bool in
            guard case .finding = state else { return true }
            state = .using(pool)
            return false
        }
        if closed {
            Self.retire(pool)
            throw CancellationError()
        }
        return pool
    }

    /// Once a server is in use and no other would do better (one server, or any allowed), that one,
    /// unchecked: its pool reconnects by itself. Otherwise each server is asked whether it takes writes
    /// and exactly one must: two would be two primaries, whose logs part ways, so neither is chosen.
    private func chooseServer(keeping inUse: PostgresLogLocation.Server?) async throws -> PostgresLogLocation.Server {
        if let inUse, location.servers.count == 1 || !location.needsWritable { return inUse }
        var writable: [(PostgresLogLocation.Server, ServerRole)] = []
        var refusals: [String] = []
        for server in location.servers {
            do {
                guard let role = try await ServerRole.of(server, in: location, logger: connectionLogger) else {
                    throw PostgresLogError.unreachable(location: "\(server)", reason: "no answer within \(location.connectTimeout) (connect_timeout)")
                }
                if role.takesWrites || !location.needsWritable {
                    writable.append((server, role))
                    if !location.needsWritable { break }
                } else {
                    refusals.append("\(server): a standby")
                }
            } catch {
                refusals.append("\(server): \(PostgresSharedLog.reason(error))")
            }
        }
        guard let (server, role) = writable.first else {
            throw PostgresLogError.unreachable(location: location.description, reason: "no server takes writes (\(refusals.joined(separator: "; ")))")
        }
        guard writable.count == 1 else {
            throw PostgresLogError.unreachable(
                location: location.description,
                reason: "\(writable.map { "\($0.0)" }.joined(separator: " and ")) both take writes: two primaries. Stop the one that was not promoted and rebuild it as a standby (ops/postgresql.md)"
            )
        }
        guard role.synchronousCommit != "off" else {
            throw PostgresLogError.notDurable(location: "\(location) (\(server))", synchronousCommit: role.synchronousCommit)
        }
        if location.servers.count > 1, role.synchronousStandbys.isEmpty || role.synchronousCommit == "local" {
            logger.warning(
                "the log's server waits for no standby before a commit: an event acknowledged now is lost if this server is, until a standby is synchronous again (ops/postgresql.md)",
                metadata: ["server": "\(server)", "synchronous_standby_names": "\(role.synchronousStandbys)", "synchronous_commit": "\(role.synchronousCommit)"]
            )
        }
        return server
    }
}

/// What one server is, asked on a connection of its own: a refused connection fails at once.
private struct ServerRole {
    var takesWrites: Bool
    var synchronousCommit: String
    var synchronousStandbys: String

    /// nil when the server has not answered within the location's `connectTimeout`.
    static func of(_ server: PostgresLogLocation.Server, in location: PostgresLogLocation, logger: Logger) async throws -> ServerRole? {
        try await withDeadline(location.connectTimeout) { () -> Result<ServerRole, any Error> in
            do { return .success(try await ask(server, in: location, logger: logger)) } catch { return .failure(error) }
        }?.get()
    }

    private static func ask(_ server: PostgresLogLocation.Server, in location: PostgresLogLocation, logger: Logger) async throws -> ServerRole {
        let connection = try await PostgresConnection.connect(configuration: location.connectionConfiguration(for: server), id: 0, logger: logger)
        defer { Task { try? await connection.close() } }
        let rows = try await connection.query(
            """
            SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off',
                   current_setting('synchronous_commit'), current_setting('synchronous_standby_names')
            """,
            logger: logger
        )
        for try await (writes, commit, standbys) in rows.decode((Bool, String, String).self) {
            return ServerRole(takesWrites: writes, synchronousCommit: commit, synchronousStandbys: standbys)
        }
        throw PostgresLogError.unreachable(location: "\(server)", reason: "no answer to a role query")
    }
}
