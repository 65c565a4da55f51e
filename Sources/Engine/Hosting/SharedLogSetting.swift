import EventLog
import PersonalData
import HTTPServing
import PostgresLog
import ReadModels

/// `<PRODUCT>_LOG_URL` (or `--log-url`): the product's log in PostgreSQL, shared by all its nodes.
public enum SharedLogSetting {
    /// The URL when it is one PostgreSQL can be reached by; its password never appears in the message.
    public static func checked(_ url: String, name: String) throws -> String {
        do {
            _ = try PostgresLogLocation(url: url)
            return url
        } catch {
            throw InvalidSetting(name: name, value: "(hidden)", expected: "postgres://user:password@host:port[,host:port…]/database[?sslmode=disable|prefer|require&target_session_attrs=any|read-write&connect_timeout=SECONDS] (\(error))")
        }
    }

    /// Where the log is, for messages: never a password.
    public static func describe(_ url: String?) -> String {
        guard let url else { return "embedded" }
        return (try? PostgresLogLocation(url: url).description) ?? "postgres"
    }

    /// Connects and prepares the product's log and key store, or stops the start with a message
    /// naming the setting (`<PRODUCT>_LOG_URL`, or what gave the URL: log-copy's `--to`).
    /// `operationTimeout` bounds each call to the server (a serving node's by default; a bulk copy's
    /// batch takes longer).
    static func open<Product: EventSourcedProduct>(
        _ url: String, for _: Product.Type, named setting: String? = nil, operationTimeout: Duration = PostgresSharedLog.servingOperationTimeout
    ) async throws -> SharedStores {
        let name = setting ?? "\(Product.environmentPrefix)_LOG_URL"
        do {
            let log = try await PostgresSharedLog(url: try checked(url, name: name), product: Product.name, operationTimeout: operationTimeout)
            return SharedStores(log: log, keys: PostgresSharedKeys(log: log))
        } catch let error as PostgresLogError {
            throw SharedLogUnavailable(setting: name, reason: error.description)
        }
    }
}

/// What the nodes of a product share: the log, and the key store its personal fields are sealed under.
struct SharedStores {
    let log: any SharedLog
    let keys: any SharedKeys
}

public struct SharedLogUnavailable: Error, CustomStringConvertible {
    public let setting: String
    public let reason: String

    public var description: String { "\(setting): \(reason)" }
}
