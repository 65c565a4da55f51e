import Foundation
import HTTPServing
import Prometheus

/// What every product's server configuration has, so that one `serve` command fills them all in:
/// where, on which address, whether a demo, where metrics go, and the rest from its environment.
public protocol ServerConfiguration: Sendable {
    init(dataDirectory: URL)
    var demoMode: Bool { get set }
    var host: String { get set }
    var port: Int { get set }
    var metricsRegistry: PrometheusCollectorRegistry? { get set }
    var connections: ConnectionLimits { get }
    /// Every `<NAME>_*` variable it reads; others are reported as unknown at start-up.
    static var environmentNames: Set<String> { get }
    /// The rest of the configuration from the environment, every value checked.
    mutating func apply(_ settings: EnvironmentSettings) throws
}
