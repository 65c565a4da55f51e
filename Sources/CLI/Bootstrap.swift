import Foundation
import Logging
import Metrics
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

/// swift-log's `StreamLogHandler` lines on standard error, with the metadata rendered when a line is
/// written. `StreamLogHandler` renders all of it each time a key is set, which every request paid
/// for its request id and user id even when nothing was logged (~2 % of a `GET /movies/{id}`).
struct StandardErrorLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var stream = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
        stream.logLevel = logLevel
        stream.metadata = metadata
        stream.log(event: event)
    }
}
