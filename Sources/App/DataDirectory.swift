import Foundation

/// Where things live in a data directory: the LMDB log, the read-model SQLite file, the demo marker.
public struct DataDirectory: Sendable {
    public let root: URL

    public init(_ root: URL) {
        self.root = root
    }

    public var log: URL { root.appendingPathComponent("log") }
    public var read: URL { root.appendingPathComponent("read") }
    public var readDatabasePath: String { read.appendingPathComponent("read.sqlite").path }
    /// Present when the directory was created in demo mode, so it stays a demo on restart.
    public var demoMarker: URL { root.appendingPathComponent("demo-mode") }
}
