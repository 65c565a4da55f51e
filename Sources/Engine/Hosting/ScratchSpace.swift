import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where operator commands fold their copies (`verify`, `as-of`, `seal-log`): read models that hold
/// personal data in clear. In the data directory rather than the system's temporary one, so a copy
/// stays under the directory's permissions and on its disk (not a tmpfs in memory), and what a
/// killed command left behind is removed by the next command, server start or erasure.
extension DataDirectory {
    public var scratch: URL { root.appendingPathComponent("scratch") }

    /// A new directory only this user can open, named for `purpose` and this process, after removing
    /// what commands no longer running left.
    public func makeScratch(_ purpose: String) throws -> URL {
        removeAbandonedScratch()
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let directory = scratch.appendingPathComponent("\(getpid())-\(purpose)-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return directory
    }

    /// Removes every scratch directory whose process has ended.
    public func removeAbandonedScratch() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
        for name in names {
            guard let pid = name.split(separator: "-").first.flatMap({ Int32($0) }), !Self.isRunning(pid) else { continue }
            try? FileManager.default.removeItem(at: scratch.appendingPathComponent(name))
        }
    }

    private static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
