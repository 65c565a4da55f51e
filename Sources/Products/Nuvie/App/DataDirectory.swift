import ReadModels
import Foundation
import NuvieProjections
#if canImport(Glibc)
import Glibc
#endif

/// Where things live in a data directory: the LMDB log, the read-model SQLite file, the demo marker.
public struct DataDirectory: Sendable {
    public let root: URL

    public init(_ root: URL) {
        self.root = root
    }

    public var log: URL { root.appendingPathComponent("log") }
    public var read: URL { root.appendingPathComponent("read") }
    /// The read-model generation in force (see `ReadModelFiles`).
    public var readDatabasePath: String { ReadModelFiles(directory: read).currentPath }
    /// Present when the directory was created in demo mode, so it stays a demo on restart.
    public var demoMarker: URL { root.appendingPathComponent("demo-mode") }

    /// Holds the pid of the server serving this directory while it runs.
    public var serverPidFile: URL { root.appendingPathComponent("server.pid") }

    /// The pid of a live server over this directory, if one is running.
    public var runningServer: Int32? {
        guard let text = try? String(contentsOf: serverPidFile, encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), kill(pid, 0) == 0
        else { return nil }
        return pid
    }
}
