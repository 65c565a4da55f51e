import Foundation
import NIOConcurrencyHelpers

/// A product's `<PRODUCT>_*` settings in a process environment, each checked when read: a value that cannot be
/// used stops the start-up with a message naming the variable, instead of falling back to a default.
public struct EnvironmentSettings: Sendable {
    public let values: [String: String]
    private let reads = NamesRead()

    public init(_ values: [String: String] = ProcessInfo.processInfo.environment) {
        self.values = values
    }

    /// The names the engine reads for every product (`ServerConfiguration.applyEverySetting`), so a
    /// product reads only its own.
    public static func servingNames(prefix: String) -> Set<String> {
        Set([
            "DATA_DIR", "LOG_LEVEL", "LOG_FORMAT", "HOST", "PORT", "DEMO", "LOG_URL", "MASTER_KEY", "MASTER_KEY_FILE", "ADMIN_TOKEN", "ADMIN_TOKEN_FILE",
            "READ_YOUR_WRITES_TIMEOUT_MS",
            "HTTP_IDLE_TIMEOUT_SECONDS", "HTTP_HEADER_TIMEOUT_SECONDS", "HTTP_BODY_TIMEOUT_SECONDS", "HTTP_MAX_CONNECTIONS",
            "HTTP_MAX_CONNECTIONS_PER_ADDRESS", "HTTP_TRUSTED_PROXIES",
        ].map { "\(prefix)_\($0)" })
    }

    /// Every name asked for so far, set or not.
    public var namesRead: Set<String> { reads.all }

    private final class NamesRead: Sendable {
        private let names = NIOLockedValueBox<Set<String>>([])
        var all: Set<String> { names.withLockedValue { $0 } }
        func insert(_ name: String) { names.withLockedValue { _ = $0.insert(name) } }
    }

    /// The value, or nil when unset or empty (an empty variable means "not set", as in shells).
    public func text(_ name: String) -> String? {
        reads.insert(name)
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    public func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let raw = text(name) else { return nil }
        guard let value = Int(raw.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw InvalidSetting(name: name, value: raw, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    public func flag(_ name: String) throws -> Bool? {
        guard let raw = text(name) else { return nil }
        switch raw.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw InvalidSetting(name: name, value: raw, expected: "true or false (1/0, yes/no, on/off)")
        }
    }

    public func httpURL(_ name: String) throws -> URL? {
        guard let raw = text(name) else { return nil }
        guard let url = URL(string: raw), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw InvalidSetting(name: name, value: raw, expected: "an http(s) URL")
        }
        return url
    }

    public func trustedProxies(_ name: String) throws -> TrustedProxies? {
        guard let raw = text(name) else { return nil }
        do {
            return try TrustedProxies(parsing: raw)
        } catch {
            throw InvalidSetting(name: name, value: raw, expected: "addresses and networks separated by commas (\(error))")
        }
    }

    /// `NAME_FILE` (a file holding the secret) or `NAME`; never both, so which one counts is not a guess.
    public func secret(_ name: String) throws -> String? {
        let file = text(name + "_FILE")
        let inline = text(name)
        if file != nil, inline != nil { throw InvalidSetting(name: name, value: "(hidden)", expected: "either \(name) or \(name)_FILE, not both") }
        guard let file else { return inline }
        do {
            return try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw InvalidSetting(name: name + "_FILE", value: file, expected: "a readable file")
        }
    }

    /// `<prefix>_*` variables set that nothing has asked for, once every setting is read, and that the
    /// engine does not read elsewhere (`servingNames`): most likely misspelt, worth a warning at start-up.
    public func unreadNames(prefix: String) -> [String] {
        let read = namesRead.union(Self.servingNames(prefix: prefix))
        return values.keys.filter { $0.hasPrefix(prefix + "_") && !read.contains($0) }.sorted()
    }
}

public struct InvalidSetting: Error, CustomStringConvertible, Equatable {
    public var name: String
    public var value: String
    public var expected: String

    public init(name: String, value: String, expected: String) {
        self.name = name
        self.value = value
        self.expected = expected
    }

    public var description: String { "\(name)=\(value) is not valid: expected \(expected)" }
}
