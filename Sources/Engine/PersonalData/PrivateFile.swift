import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files only their owner can read: created with mode 0600 rather than chmod-ed after, so there is
/// no moment another user could open them.
public enum PrivateFile {
    public struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var code: Int32

        public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    }

    /// Creates an empty file at `path`; false when something is there already.
    static func createEmpty(at path: String) throws -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            if errno == EEXIST { return false }
            throw Failure(operation: "create", path: path, code: errno)
        }
        close(descriptor)
        return true
    }

    /// Puts `contents` at `path` whole and synced, unless a file is there already (false): written
    /// to a temporary file beside it, then linked into place, which fails rather than replaces.
    public static func publish(_ contents: Data, at path: String) throws -> Bool {
        let temporary = "\(path).\(UUID().uuidString).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(operation: "create", path: temporary, code: errno) }
        defer { unlink(temporary) }
        defer { close(descriptor) }
        try contents.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                // A short write is followed by one that says why (ENOSPC on a full disk).
                guard written > 0 else { throw Failure(operation: "write", path: temporary, code: written < 0 ? errno : EIO) }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw Failure(operation: "sync", path: temporary, code: errno) }
        if link(temporary, path) != 0 {
            if errno == EEXIST { return false }
            throw Failure(operation: "link", path: path, code: errno)
        }
        return true
    }

    /// Syncs a directory, so that a file just linked into it survives a crash.
    static func syncDirectory(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(operation: "sync", path: path, code: errno) }
    }
}
