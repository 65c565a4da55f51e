import ChildProcesses
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files made immutable (`chattr +i`), for tests of a filesystem that stops taking writes: on ext4 a
/// write to one fails with EPERM even through a descriptor already open, as after a remount
/// read-only (which itself is refused while a file is open for writing).
public enum ImmutableFiles {
    /// Whether that holds here: root, chattr, and a filesystem under the temporary directory that
    /// enforces it (ext4 does, tmpfs does not); tried once.
    public static let areEnforced: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: chattr.path) else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-immutable-probe-\(UUID().uuidString)")
        let descriptor = open(probe.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer {
            close(descriptor)
            try? set(false, [probe])
            try? FileManager.default.removeItem(at: probe)
        }
        guard (try? set(true, [probe])) != nil else { return false }
        let byte: [UInt8] = [1]
        return pwrite(descriptor, byte, 1, 0) == -1 && errno == EPERM
    }()

    public static func set(_ immutable: Bool, _ paths: [URL]) throws {
        for path in paths {
            let process = try ChildProcess(
                executable: chattr, arguments: [immutable ? "+i" : "-i", path.path], environment: ProcessInfo.processInfo.environment,
                output: URL(fileURLWithPath: "/dev/null")
            )
            guard process.waitUntilExit() == 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path.path]) }
        }
    }

    private static let chattr = URL(fileURLWithPath: "/usr/bin/chattr")
}
