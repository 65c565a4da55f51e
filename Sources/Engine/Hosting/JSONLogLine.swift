import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One log line as a JSON object on standard error, for a collector that parses them:
/// `{"time": "2026-12-03T17:20:00.123Z", "level", "label", "message", "metadata": {…}}`, keys sorted.
enum JSONLogLine {
    static func write(label: String, level: Logger.Level, message: String, metadata: Logger.Metadata) {
        var object: [String: Any] = [
            "time": Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            "level": level.rawValue, "label": label, "message": message,
        ]
        if !metadata.isEmpty { object["metadata"] = metadata.mapValues(value) }
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        line.append(UInt8(ascii: "\n"))
        // One line at a time, so that lines from several threads never interleave, and whole.
        writing.withLock { _ in
            line.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(STDERR_FILENO, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                    if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { return }
                }
            }
        }
    }

    private static let writing = Mutex(())

    private static func value(_ metadata: Logger.MetadataValue) -> Any {
        switch metadata {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .dictionary(let dictionary): dictionary.mapValues(value)
        case .array(let array): array.map(value)
        }
    }
}
