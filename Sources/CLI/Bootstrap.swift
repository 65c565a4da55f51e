import Foundation
import Logging
import Metrics
import NuvieApp
import Prometheus

/// Logging and metrics are process-wide: bootstrapped here, once, before anything logs.
enum Bootstrap {
    static func logging(level: String) -> Logger {
        LoggingSystem.bootstrap { label in
            StandardErrorLogHandler(label: label, logLevel: Logger.Level(rawValue: level) ?? .info)
        }
        return Logger(label: "nuvie")
    }

    static func metrics() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }
}
