import Foundation
import NIOSSL
import PostgresNIO

/// A `postgres://user:password@host:port[,host:port…]/database?sslmode=…&target_session_attrs=…` URL,
/// read into postgres-nio's settings, one per server (postgres-nio connects to one host: the list is
/// ours, as libpq reads it).
/// - `sslmode`: `disable`, `prefer` (the default) or `require`.
/// - `target_session_attrs`: `any` (the default for one server: the first server that answers) or
///   `read-write` / `primary` (the one that takes writes: after a failover, the standby promoted in its
///   place; the default, and the only choice, when several servers are listed: the first to answer may
///   be a standby, whose every write fails, or an old primary back unfenced, a second log).
/// - `connect_timeout`: the seconds a server has to take a connection (TCP, TLS and sign-in, as
///   libpq counts it), and for a node looking for its server also to say whether it takes writes,
///   before it counts as unreachable: 10 by default. A host that refuses the connection fails at once.
public struct PostgresLogLocation: Sendable, CustomStringConvertible {
    public struct Server: Sendable, Equatable, CustomStringConvertible {
        public let host: String
        public let port: Int
        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    public let servers: [Server]
    /// Whether only a server that takes writes will do (`target_session_attrs=read-write`).
    public let needsWritable: Bool
    /// How long a server has to take a connection, and to answer whether it takes writes.
    public let connectTimeout: Duration
    let username: String
    let password: String?
    let database: String
    private let tls: PostgresClient.Configuration.TLS
    private let connectionTLS: PostgresConnection.Configuration.TLS

    public init(url: String) throws {
        let (servers, rest) = try Self.splitServers(url)
        guard let components = URLComponents(string: rest), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw PostgresLogError.badURL("expected postgres://user:password@host:port/database")
        }
        database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw PostgresLogError.badURL("the URL names no database") }
        let query = Dictionary(components.queryItems?.map { ($0.name, $0.value ?? "") } ?? []) { $1 }
        // libpq reads more (`host`, `port`, `user`…): one left out unnoticed would connect elsewhere.
        if let other = query.keys.sorted().first(where: { !["sslmode", "target_session_attrs", "connect_timeout"].contains($0) }) {
            throw PostgresLogError.badURL("\(other) is not a parameter this server reads (sslmode, target_session_attrs, connect_timeout); give hosts and ports as user@host:port[,host:port…]/database")
        }
        switch query["sslmode"] ?? "prefer" {
        case "disable":
            tls = .disable
            connectionTLS = .disable
        case "prefer":
            tls = .prefer(.makeClientConfiguration())
            connectionTLS = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case "require":
            tls = .require(.makeClientConfiguration())
            connectionTLS = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case let other: throw PostgresLogError.badURL("sslmode \(other) is not one of disable, prefer, require")
        }
        switch query["target_session_attrs"] ?? (servers.count > 1 ? "read-write" : "any") {
        case "any" where servers.count > 1:
            throw PostgresLogError.badURL("target_session_attrs=any with several servers would write to the first that answers, a standby or an old primary: use read-write")
        case "any": needsWritable = false
        case "read-write", "primary": needsWritable = true
        case let other: throw PostgresLogError.badURL("target_session_attrs \(other) is not one of any, read-write, primary")
        }
        switch query["connect_timeout"].map({ Int($0) }) {
        case nil: connectTimeout = .seconds(10)
        case .some(.some(let seconds)) where seconds > 0: connectTimeout = .seconds(seconds)
        default: throw PostgresLogError.badURL("connect_timeout must be a whole number of seconds from 1")
        }
        self.servers = servers
        username = components.user ?? "postgres"
        password = components.password
    }

    /// The servers of `url`'s authority, and the URL with the first of them alone (for URLComponents,
    /// which reads one host).
    private static func splitServers(_ url: String) throws -> (servers: [Server], rest: String) {
        guard let schemeEnd = url.range(of: "://") else { throw PostgresLogError.badURL("expected postgres://user:password@host:port/database") }
        let afterScheme = url[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" }
        let userInfo = authority.lastIndex(of: "@").map { authority[...$0] } ?? ""
        let hostList = authority[(authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex)...]
        let servers = try hostList.split(separator: ",", omittingEmptySubsequences: false).map { item -> Server in
            let (host, port): (Substring, Substring?)
            if item.hasPrefix("["), let close = item.firstIndex(of: "]") {
                host = item[item.index(after: item.startIndex)..<close]
                let after = item[item.index(after: close)...]
                port = after.hasPrefix(":") ? after.dropFirst() : nil
            } else if let colon = item.lastIndex(of: ":") {
                host = item[..<colon]
                port = item[item.index(after: colon)...]
            } else {
                (host, port) = (item, nil)
            }
            guard !host.isEmpty else { throw PostgresLogError.badURL("the URL names no host") }
            guard let number = port.map({ Int($0) }) ?? 5432, (1...65535).contains(number) else {
                throw PostgresLogError.badURL("the port of \(item) is not a number from 1 to 65535")
            }
            return Server(host: String(host), port: number)
        }
        return (servers, url[..<schemeEnd.upperBound] + userInfo + servers[0].description + afterScheme[authority.endIndex...])
    }

    /// A pool's settings for the first server listed (a tool's connection to a server it names).
    public var firstServerConfiguration: PostgresClient.Configuration { configuration(for: servers[0]) }

    /// A pool's settings for `server`.
    func configuration(for server: Server) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: server.host, port: server.port, username: username, password: password, database: database, tls: tls
        )
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = Self.sessionSettings
        return configuration
    }

    /// - An append reads the head after it takes the append lock, in a snapshot taken after the lock:
    ///   read committed, whatever the database or role sets as their default (under repeatable read the
    ///   snapshot predates the lock, and every append that waited for it would fail on a stale head).
    /// - A node whose host is lost, or whose process is frozen, between two statements of a transaction
    ///   that holds the append or key-store lock would stop every node's writes until the server noticed:
    ///   hours, or never for a frozen process. The server ends a transaction left idle for 10 s (ours
    ///   send their statements back to back), and probes an idle connection after 30 s without traffic,
    ///   so a lost host's session (News' leadership lock) ends within about a minute.
    static let sessionSettings = [
        ("default_transaction_isolation", "read committed"),
        ("idle_in_transaction_session_timeout", "10s"),
        ("tcp_keepalives_idle", "30"), ("tcp_keepalives_interval", "10"), ("tcp_keepalives_count", "3"),
    ]

    /// A single connection's settings for `server`: a check fails at once, where a pool keeps retrying.
    func connectionConfiguration(for server: Server) -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: server.host, port: server.port, username: username, password: password, database: database, tls: connectionTLS
        )
        configuration.options.connectTimeout = TimeAmount(connectTimeout)
        configuration.options.additionalStartupParameters = Self.sessionSettings
        return configuration
    }

    /// Hosts, ports and database: never the password.
    public var description: String {
        "postgres://\(username)@\(servers.map(\.description).joined(separator: ","))/\(database)"
    }
}

public enum PostgresLogError: Error, CustomStringConvertible, Sendable {
    case badURL(String)
    case unreachable(location: String, reason: String)
    case heldByAnotherProduct(location: String, product: String)
    case writtenByANewerVersion(location: String, schemaVersion: Int)
    case notDurable(location: String, synchronousCommit: String)

    public var description: String {
        switch self {
        case .badURL(let reason): "not a PostgreSQL URL: \(reason)"
        case let .unreachable(location, reason): "cannot reach the event log at \(location): \(reason)"
        case let .heldByAnotherProduct(location, product): "the database at \(location) holds the event log of \(product)"
        case let .writtenByANewerVersion(location, version):
            "the event log at \(location) has schema version \(version), newer than this binary knows: upgrade it"
        case let .notDurable(location, setting):
            "the database at \(location) has synchronous_commit = \(setting): appends would be acknowledged before they are durable"
        }
    }
}
