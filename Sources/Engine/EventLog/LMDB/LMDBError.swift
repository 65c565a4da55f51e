import CLMDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure reported by the LMDB C library, with its code and message.
public struct LMDBError: Error, CustomStringConvertible, Sendable, Equatable {
    public let code: Int32
    public let operation: String

    public var description: String {
        let message = mdb_strerror(code).map { String(cString: $0) } ?? "unknown error"
        return "LMDB \(operation) failed (\(code)): \(message)"
    }

    public var isMapFull: Bool { code == MDB_MAP_FULL }
    public var isMapResized: Bool { code == MDB_MAP_RESIZED }
    /// The filesystem refused to grow a file (`mdb_txn_commit` and `mdb_env_open` return the errno).
    public var isNoSpace: Bool { StorageFullError.isNoSpace(errno: code) }

    /// `isNoSpace`, or EIO where the filesystem of `path` is full: LMDB answers a write the
    /// filesystem cut short with EIO, not the ENOSPC behind it.
    public func isNoSpace(onFilesystemOf path: String) -> Bool {
        isNoSpace || (code == EIO && FreeSpace.isFull(at: path))
    }

    /// The filesystem refused a write for another reason than space: read-only (as ext4 remounts
    /// itself after an error), not permitted, or an I/O error. Like a full disk it passes only when
    /// an operator acts, so it is answered and reported as one.
    public var isRefusedByFilesystem: Bool { [EROFS, EPERM, EACCES, EIO].contains(code) }

    /// Throws unless `code` is success.
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(LMDBError) {
        guard code == MDB_SUCCESS else { throw LMDBError(code: code, operation: operation()) }
    }
}
