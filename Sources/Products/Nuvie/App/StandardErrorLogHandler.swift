import Logging

/// swift-log's `StreamLogHandler` lines on standard error, with the metadata rendered when a line is
/// written. `StreamLogHandler` renders all of it each time a key is set, which every request paid
/// for its request id and user id even when nothing was logged (~2 % of a `GET /movies/{id}`).
/// Logging is process-wide: `nuvie` and `nuvie-bench` each bootstrap it once, before anything logs.
public struct StandardErrorLogHandler: LogHandler {
    public let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider

    public init(label: String, logLevel: Logger.Level) {
        self.label = label
        self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var stream = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
        stream.logLevel = logLevel
        stream.metadata = metadata
        stream.log(event: event)
    }
}
