import App
import ArgumentParser
import Foundation

extension Serve {
    /// The HTTP server's timeouts and connection limit: the defaults, overridden by
    /// `NUVIE_HTTP_IDLE_TIMEOUT_SECONDS`, `NUVIE_HTTP_HEADER_TIMEOUT_SECONDS`,
    /// `NUVIE_HTTP_BODY_TIMEOUT_SECONDS` and `NUVIE_HTTP_MAX_CONNECTIONS`. A value that is not a whole
    /// number in range stops start-up.
    static func connectionLimits(_ environment: [String: String]) throws -> ConnectionLimits {
        var limits = ConnectionLimits()
        if let seconds = try wholeNumber(environment, "NUVIE_HTTP_IDLE_TIMEOUT_SECONDS", in: 1...3600) {
            limits.idleTimeout = .seconds(seconds)
        }
        if let seconds = try wholeNumber(environment, "NUVIE_HTTP_HEADER_TIMEOUT_SECONDS", in: 1...300) {
            limits.headerTimeout = .seconds(seconds)
        }
        if let seconds = try wholeNumber(environment, "NUVIE_HTTP_BODY_TIMEOUT_SECONDS", in: 1...3600) {
            limits.bodyTimeout = .seconds(seconds)
        }
        if let count = try wholeNumber(environment, "NUVIE_HTTP_MAX_CONNECTIONS", in: 1...1_000_000) {
            limits.maxConnections = count
        }
        return limits
    }

    private static func wholeNumber(_ environment: [String: String], _ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let raw = environment[name] else { return nil }
        guard let value = Int(raw), range.contains(value) else {
            throw ValidationError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(raw)'")
        }
        return value
    }
}
