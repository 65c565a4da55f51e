import ChildProcesses
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs mounted over a directory, for tests of a full disk. Mounting needs root (or
/// CAP_SYS_ADMIN): where it is not permitted, `isPermitted` is false and such tests are skipped,
/// which the test report shows with the reason.
public final class TmpfsMount: Sendable {
    public let url: URL

    /// Mounts a tmpfs of `megabytes` over `url`, creating the directory.
    public init(at url: URL, megabytes: Int) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", "-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", url.path) == 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.url = url
    }

    /// Unmounts, lazily if something still has it open.
    public func unmount() {
        if Self.run("/bin/umount", url.path) != 0 { _ = Self.run("/bin/umount", "-l", url.path) }
    }

    deinit { unmount() }

    /// Whether this process may mount a tmpfs: tried once on a scratch directory.
    public static let isPermitted: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-tmpfs-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: probe) }
        guard let mount = try? TmpfsMount(at: probe, megabytes: 1) else { return false }
        mount.unmount()
        return true
    }()

    /// Fills the filesystem with `filler` until a write of one page fails, and returns its size.
    @discardableResult
    public func fill(with filler: URL) throws -> Int {
        let descriptor = open(filler.path, O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var written = 0
        var chunk = 1 << 20
        let bytes = [UInt8](repeating: 0x5A, count: chunk)
        while chunk >= 512 {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, chunk) }
            if count > 0 {
                written += count
            } else if errno == ENOSPC {
                chunk /= 2
            } else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
        return written
    }

    private static func run(_ arguments: String...) -> Int32 {
        let executable = URL(fileURLWithPath: arguments[0])
        guard let process = try? ChildProcess(
            executable: executable, arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
            output: URL(fileURLWithPath: "/dev/null")
        ) else { return -1 }
        return process.waitUntilExit()
    }
}
