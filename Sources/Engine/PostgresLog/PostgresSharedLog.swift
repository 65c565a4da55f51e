import EventLog
import Foundation
import Logging
import Metrics
import NIOFoundationCompat
import PostgresNIO
import _ConnectionPoolModule

/// The event log as one PostgreSQL table, shared by every node of a product.
///
/// Positions are gap-free and commit in order: every append takes one transaction-scoped advisory
/// lock before it reads the head, so a transaction can only take positions after every earlier one has
/// committed, and a reader never sees position N + 1 before N (the sequence-gap trap of SQL event
/// stores; `ops/postgresql.md`). One commit at a time is made up for by group commit: every append
/// that arrives during a commit goes into the next (`SharedLogFollower`).
public final class PostgresSharedLog: SharedLog {
    static let appendLock: Int64 = 0x6576_656E_745F_6C67  // "event_lg"
    static let migrationLock: Int64 = 0x6576_656E_745F_6D67  // "event_mg"
    static let channel = "event_log"
    static let columns = "position, event_id, stream_id, stream_version, type, schema_version, recorded_at, actor_user_id, user_ids, payload"
    private static let pollInterval = Duration.seconds(1)
    /// How long an operation may take before the log is reported unreachable (writes answer 503).
    let operationTimeout: Duration
    /// A serving node's: a request's append fails fast rather than hold its client.
    public static let servingOperationTimeout = Duration.seconds(5)
    /// How long an append keeps being retried, under its event ids, while no server takes writes or
    /// its outcome is unknown: with several servers listed, long enough for a scripted promotion.
    let failoverWait: Duration

    public let location: String
    let commitsAsPredicted = Counter(label: "engine_shared_log_commits_total", dimensions: [("decided", "as_predicted")])
    let commitsAfterReading = Counter(label: "engine_shared_log_commits_total", dimensions: [("decided", "after_reading")])
    let primary: PrimaryPool
    /// For postgres-nio's calls: errors only.
    let logger: Logger
    /// For what this log itself reports.
    let reporter: Logger

    /// Connects to the server that takes writes, checks that its commits are durable, and creates or
    /// migrates the log's tables. Throws at once, naming the place, when no server can be used or the
    /// database holds another product's log.
    public init(
        url: String, product: String, operationTimeout: Duration = servingOperationTimeout, failoverWait: Duration? = nil,
        logger: Logger = Logger(label: "engine.postgres-log")
    ) async throws {
        let place = try PostgresLogLocation(url: url)
        self.operationTimeout = operationTimeout
        self.failoverWait = failoverWait ?? (place.servers.count > 1 ? .seconds(15) : .zero)
        location = place.description
        // PostgresNIO's own messages (a lease asked for while `run()` is starting, each failed
        // connection attempt) only from errors up: this log reports what it could not do itself.
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .error)
        self.logger = quiet
        reporter = logger
        primary = PrimaryPool(place, logger: logger, connectionLogger: quiet)
        do {
            let pool = try await primary.current()
            do {
                try await PostgresLogSchema.prepare(pool.client, product: product, location: location, logger: quiet)
            } catch let error as PostgresTransactionError {
                throw error.closureError ?? error
            }
        } catch let error as PostgresLogError {
            primary.close()
            throw error
        } catch {
            primary.close()
            throw PostgresLogError.unreachable(location: location, reason: Self.reason(error))
        }
    }

    public var server: String? { primary.server?.description }

    public func close() {
        primary.close()
    }

    /// Creates a database on the server `serverURL` names (connected to as given); the URL of the new one.
    public static func createDatabase(on serverURL: String, named name: String) async throws -> String {
        guard var components = URLComponents(string: serverURL), name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw PostgresLogError.badURL("cannot name a database \(name) on \(serverURL)")
        }
        var quiet = Logger(label: "engine.postgres-log")
        quiet.logLevel = .error
        let client = PostgresClient(configuration: try PostgresLogLocation(url: serverURL).firstServerConfiguration, backgroundLogger: quiet)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: quiet)
        }
        components.path = "/" + name
        return components.string ?? serverURL
    }

    // MARK: Reading

    public func head() async throws -> UInt64 {
        try await bounded { [self] client in try await client.withConnection { try await Self.head($0, logger: logger) } }
    }

    public func events(after position: UInt64, limit: Int) async throws -> [RecordedEvent] {
        try await bounded { [self] client in
            let rows = try await client.query(
                "SELECT \(unescaped: Self.columns) FROM event_log WHERE position > \(Int64(clamping: position)) ORDER BY position LIMIT \(limit)",
                logger: logger
            )
            return try await Self.decode(rows)
        }
    }

    public func eventId(at position: UInt64) async throws -> UUID? {
        try await bounded { [self] client in
            let rows = try await client.query(
                "SELECT pg_is_in_recovery(), (SELECT event_id FROM event_log WHERE position = \(Int64(clamping: position)))", logger: logger
            )
            for try await (standby, id) in rows.decode((Bool, UUID?).self) {
                if standby { throw PostgresLogError.unreachable(location: location, reason: "a standby answered, which may be behind") }
                return id
            }
            return nil
        }
    }

    /// A number no node has been given under `prefix`, once its commit is done (`waitForCommit`, as for
    /// an append: a number whose commit a failover undid could be given again).
    public func nextNumber(_ prefix: String, above floor: Int64) async throws -> Int64 {
        try await bounded { [self] client in
            try await client.withConnection { connection in
                let rows = try await connection.query(
                    """
                    INSERT INTO stream_number (prefix, highest) VALUES (\(prefix), \(floor) + 1)
                    ON CONFLICT (prefix) DO UPDATE SET highest = greatest(stream_number.highest, excluded.highest - 1) + 1
                    RETURNING highest
                    """,
                    logger: logger
                )
                var given: Int64?
                for try await number in rows.decode(Int64.self) { given = number }
                try await connection.waitForCommit(logger: logger)
                guard let given else { throw PostgresLogError.unreachable(location: location, reason: "no number came back for \(prefix)") }
                return given
            }
        }
    }

    /// `operation` on the pool of the server that takes writes, or `SharedLogUnreachable` when it has
    /// not finished within `operationTimeout` (the connection pool waits for a server that is down
    /// rather than failing), the connection failed, or the pool was left for another server's; then
    /// the next operation looks for the server again. `outcomeUnknown` is asked only then, once:
    /// whether what failed may have committed (`CommitSent.giveUp`, which also ends the attempt).
    func bounded<T: Sendable>(
        outcomeUnknown: @autoclosure @escaping @Sendable () -> Bool = false, _ operation: @escaping @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        let pool: PrimaryPool.Pool
        do {
            pool = try await primary.current()
        } catch {
            throw SharedLogUnreachable(reason: Self.unavailability(error) ?? Self.reason(error), outcomeUnknown: outcomeUnknown())
        }
        let result = await withDeadline(operationTimeout, abandonedWith: pool.abandonment) { [primary] () -> Result<T, any Error> in
            do {
                return .success(try await operation(pool.client))
            } catch {
                // An error of a pool given up meanwhile (its server left) is that, whatever it says.
                let retired = pool.abandonment.isDeclared
                let unavailable = Self.unavailability(Self.cause(error)) != nil
                guard Task.isCancelled || retired || unavailable else { return .failure(error) }
                // Cancelled at the deadline, a wait for a connection fails as cancelled: still only a timeout.
                primary.lost(pool, onlyTimedOut: Task.isCancelled || !unavailable)
                return .failure(retired ? PostgresLogError.unreachable(location: "\(pool.server)", reason: "its connection was given up") : error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error):
            let cause = Self.cause(error)
            guard let unreachable = Self.unavailability(cause) else { throw cause }
            throw SharedLogUnreachable(reason: unreachable, outcomeUnknown: outcomeUnknown())
        case nil:
            primary.lost(pool, onlyTimedOut: true)
            throw SharedLogUnreachable(reason: "no answer from \(pool.server) within \(operationTimeout) (down, or not accepting connections), or it was given up for another server", outcomeUnknown: outcomeUnknown())
        }
    }

    /// `write`, bounded as `bounded` is, once. `write` calls `committing` just before it sends what
    /// commits: a failure before that saved nothing and says so, and a `write` abandoned at the
    /// deadline before that can no longer send it.
    func boundedWrite<T: Sendable>(
        _ write: @escaping @Sendable (PostgresClient, _ committing: @escaping @Sendable () throws -> Void) async throws -> T
    ) async throws -> T {
        let commitSent = CommitSent()
        let attempt = commitSent.begin()
        return try await bounded(outcomeUnknown: commitSent.giveUp()) { client in
            try await write(client) { try commitSent.mark(attempt) }
        }
    }

    private static func cause(_ error: any Error) -> any Error {
        (error as? PostgresTransactionError).flatMap { $0.closureError ?? $0.commitError ?? $0.beginError } ?? error
    }

    /// Why `error` means the server cannot be used right now (no server takes writes, the connection
    /// failed or closed, the pool stopped trying after a minute of failed connections, or the server
    /// is shutting down, starting, out of connections, or now a read-only standby); nil for any
    /// other error, a bug.
    static func unavailability(_ error: any Error) -> String? {
        if case .unreachable(_, let reason) = error as? PostgresLogError { return reason }
        if error as? ConnectionPoolError == .connectionCreationCircuitBreakerTripped {
            return "no connection could be made for a while (the pool's circuit breaker tripped)"
        }
        guard let error = error as? PSQLError else { return nil }
        guard error.code == .server else { return reason(error) }
        let state = error.serverInfo?[.sqlState] ?? ""
        return ["08", "57", "53"].contains(String(state.prefix(2))) || state == "25006" ? reason(error) : nil
    }

    public func watchHead(_ heard: @escaping @Sendable (Result<UInt64, any Error>) -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                while !Task.isCancelled && !primary.isClosed {
                    do {
                        heard(.success(try await head()))
                    } catch is CancellationError {
                        return
                    } catch {
                        if primary.isClosed { return }
                        heard(.failure(error))
                    }
                    try? await Task.sleep(for: Self.pollInterval)
                }
            }
            group.addTask { [self] in
                while !Task.isCancelled && !primary.isClosed {
                    guard let pool = try? await primary.current() else {
                        try? await Task.sleep(for: Self.pollInterval)
                        continue
                    }
                    do {
                        try await pool.client.withConnection { connection in
                            try await connection.listen(on: Self.channel) { notifications in
                                for try await notification in notifications {
                                    if let head = UInt64(notification.payload) { heard(.success(head)) }
                                }
                            }
                        }
                        // The notifications ended: the connection closed. It is the first to know the
                        // server is gone, before any operation waits for a connection to it.
                        primary.lost(pool, onlyTimedOut: false)
                    } catch {
                        if Self.unavailability(error) != nil { primary.lost(pool, onlyTimedOut: false) }
                        try? await Task.sleep(for: Self.pollInterval)
                    }
                }
            }
        }
    }

    private static func head(_ connection: PostgresConnection, logger: Logger) async throws -> UInt64 {
        for try await position in try await connection.query("SELECT coalesce(max(position), 0) FROM event_log", logger: logger).decode(Int64.self) {
            return UInt64(position)
        }
        return 0
    }

    static func decode(_ rows: PostgresRowSequence) async throws -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        for try await row in rows {
            let (position, id, stream, version, type, schemaVersion, recordedAt, actor, users, payload) =
                try row.decode((Int64, UUID, String, Int64, String, Int32, Int64, Int64?, [Int64], Data).self)
            events.append(RecordedEvent(
                position: UInt64(position), id: id, type: type, schemaVersion: UInt16(clamping: schemaVersion), streamId: stream,
                streamVersion: UInt64(version), recordedAtMicroseconds: recordedAt, actorUserId: actor, userIds: users, payload: payload
            ))
        }
        return events
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return error.underlying.map { "\($0)" } ?? "\(error.code)"
        }
        return "\(error)"
    }
}
