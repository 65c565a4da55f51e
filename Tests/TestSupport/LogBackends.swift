import EventLog
import Foundation
import Logging
import PostgresLog
import PostgresNIO
import Testing

/// The log backends a log test runs on: the embedded LMDB log always, and the PostgreSQL log when
/// `ENGINE_TEST_POSTGRES_URL` names a server to create databases in. `scripts/test.sh` always starts
/// one (`scripts/postgres.sh run`), so CI runs both; a bare `swift test` runs the LMDB half.
public enum LogBackend: String, Sendable, CustomTestStringConvertible {
    case lmdb
    case postgres

    public static var available: [LogBackend] { TestPostgres.serverURL == nil ? [.lmdb] : [.lmdb, .postgres] }

    public var testDescription: String { rawValue }
}

/// One test's log: a temporary directory for the embedded log (or for this process's copy of the
/// shared one) and, on PostgreSQL, a database of its own.
public struct LogPlace: Sendable {
    public let directory: TemporaryDirectory
    public let backend: LogBackend
    public let databaseURL: String?

    public init(_ backend: LogBackend) async throws {
        directory = try TemporaryDirectory()
        self.backend = backend
        databaseURL = switch backend {
        case .lmdb: nil
        case .postgres: try await TestPostgres.newDatabase()
        }
    }

    /// Opens the log; on PostgreSQL, once this process's copy in `subdirectory` holds the whole log.
    /// Its operations may take 60 s before it reports the server unreachable: the whole suite runs
    /// beside it on two cores, and these tests are about the log's semantics, not its outages.
    public func open(_ subdirectory: String = "log", mapSize: Int = 1 << 20, beforeCopy: (@Sendable () async throws -> Void)? = nil) async throws -> EventLog {
        let shared: (any SharedLog)? = if let databaseURL {
            try await PostgresSharedLog(url: databaseURL, product: "test", operationTimeout: .seconds(60))
        } else {
            nil
        }
        let log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent(subdirectory), initialMapSize: mapSize, shared: shared, beforeCopy: beforeCopy))
        try await log.catchUpWithSharedLog()
        return log
    }
}

public enum TestPostgres {
    public static var serverURL: String? { ProcessInfo.processInfo.environment["ENGINE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 } }

    /// The head of the PostgreSQL log at `url`, read as a new node would.
    public static func head(of url: String) async throws -> UInt64 {
        try await withClient(url) { client, logger in
            for try await head in try await client.query("SELECT coalesce(max(position), 0) FROM event_log", logger: logger).decode(Int64.self) {
                return UInt64(head)
            }
            return 0
        }
    }

    /// The last change sequence of the shared key store at `url`: it moves with every key claimed or destroyed.
    public static func keyStoreSequence(of url: String) async throws -> Int64 {
        try await withClient(url) { client, logger in
            for try await sequence in try await client.query("SELECT coalesce(max(sequence), 0) FROM data_key", logger: logger).decode(Int64.self) {
                return sequence
            }
            return 0
        }
    }

    /// `body` with a client of the server at `url` (with the nodes' session settings), run for its duration.
    public static func withClient<T: Sendable>(_ url: String, _ body: @Sendable (PostgresClient, Logger) async throws -> T) async throws -> T {
        var quiet = Logger(label: "test-postgres")
        quiet.logLevel = .error
        let client = PostgresClient(configuration: try PostgresLogLocation(url: url).firstServerConfiguration, backgroundLogger: quiet)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body(client, quiet)
        }
    }

    /// Ends every other connection to the database at `url`, as a restart of its server does.
    public static func dropConnections(to url: String) async throws {
        try await withClient(url) { client, logger in
            _ = try await client.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                logger: logger
            )
        }
    }

    /// A new, empty database on the test server; its URL.
    public static func newDatabase() async throws -> String {
        guard let serverURL else { throw PostgresLogError.badURL("ENGINE_TEST_POSTGRES_URL is not set") }
        return try await PostgresSharedLog.createDatabase(on: serverURL, named: "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
    }
}
