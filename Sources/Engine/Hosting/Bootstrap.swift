import HTTPServing
import ReadModels
import Foundation
import Logging
import Metrics
import Prometheus

/// Logging and metrics are process-wide: bootstrapped here, once, before anything logs. One process
/// serves one product, so its metrics and logs are that product's alone.
public enum Bootstrap {
    public static func logging<Product: EventSourcedProduct>(_ product: Product.Type, level: String, format: LogFormat = .text) -> Logger {
        LoggingSystem.bootstrap({ label, _ in
            StandardErrorLogHandler(label: label, logLevel: Logger.Level(rawValue: level) ?? .info, format: format)
        }, metadataProvider: RequestIdentity.logMetadata)
        return Logger(label: Product.name)
    }

    /// The engine names its metrics `engine_…`; they are exported as `<product>_…`.
    public static func metrics<Product: EventSourcedProduct>(_ product: Product.Type) -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in (EngineMetrics.name(name, for: Product.name), labels) }
        MetricsSystem.bootstrap(factory)
        return registry
    }
}

public enum EngineMetrics {
    /// `engine_log_append_duration` as `<product>_log_append_duration` in that product's process.
    public static func name(_ name: String, for product: String) -> String {
        name.hasPrefix("engine_") ? product + name.dropFirst("engine".count) : name
    }
}

/// How log lines are written: swift-log's text, or one JSON object per line for a log collector.
public enum LogFormat: String, Sendable, CaseIterable {
    case text, json
}

/// swift-log's `StreamLogHandler` lines on standard error (or JSON lines, `JSONLogLine`), with the
/// metadata rendered when a line is written. `StreamLogHandler` renders all of it each time a key is
/// set, which every request paid for its request id and user id even when nothing was logged (~2 %
/// of a cheap read request).
public struct StandardErrorLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider

    public init(label: String, logLevel: Logger.Level, format: LogFormat = .text) {
        self.label = label
        self.logLevel = logLevel
        self.format = format
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        if format == .json {
            var all = metadataProvider?.get() ?? [:]
            all.merge(metadata) { $1 }
            all.merge(event.metadata ?? [:]) { $1 }
            JSONLogLine.write(label: label, level: event.level, message: event.message.description, metadata: all)
            return
        }
        var stream = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
        stream.logLevel = logLevel
        stream.metadata = metadata
        stream.log(event: event)
    }
}
