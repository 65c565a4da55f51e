import Foundation
import NIOSSL
import PostgresNIO

/// A `postgres://user:password@host:port/database?sslmode=…` URL, read into postgres-nio's settings.
/// `sslmode` is `disable`, `prefer` (the default) or `require`.
public struct PostgresLogLocation: Sendable, CustomStringConvertible {
    public let configuration: PostgresClient.Configuration
    /// The same place for one connection of its own: the first check at start-up fails at once,
    /// where the pool would keep retrying.
    let connectionConfiguration: PostgresConnection.Configuration

    public init(url: String) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty
        else { throw PostgresLogError.badURL("expected postgres://user:password@host:port/database") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw PostgresLogError.badURL("the URL names no database") }
        let tls: PostgresClient.Configuration.TLS
        let connectionTLS: PostgresConnection.Configuration.TLS
        switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
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
        let port = components.port ?? 5432
        let user = components.user ?? "postgres"
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: components.password, database: database, tls: tls
        )
        configuration.options.connectTimeout = .seconds(5)
        self.configuration = configuration
        var connectionConfiguration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: components.password, database: database, tls: connectionTLS
        )
        connectionConfiguration.options.connectTimeout = .seconds(5)
        self.connectionConfiguration = connectionConfiguration
    }

    /// Host, port and database: never the password.
    public var description: String {
        "postgres://\(configuration.username)@\(configuration.host ?? "?"):\(configuration.port ?? 5432)/\(configuration.database ?? "")"
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
