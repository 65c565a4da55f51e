import Foundation
import Logging
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A write refused because the filesystem under one of the server's stores has no space left.
/// Nothing of the write was kept, and the same write succeeds once space is freed.
public struct StorageFullError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which store: the engine's own, and any a product adds (`Store(rawValue:title:)`).
    public struct Store: Sendable, Equatable {
        public var rawValue: String
        public var title: String

        public init(rawValue: String, title: String) {
            self.rawValue = rawValue
            self.title = title
        }

        public static let eventLog = Store(rawValue: "event_log", title: "the event log (LMDB)")
        public static let logIndex = Store(rawValue: "log_index", title: "the event log's index (LMDB)")
        public static let readModels = Store(rawValue: "read_models", title: "the read models (SQLite)")
    }

    /// Why the filesystem refused the write: no space, or (`refused`) read-only, not permitted or
    /// failing, which passes only when an operator acts too.
    public enum Reason: Sendable, Equatable { case noSpace, refused }

    public var store: Store
    /// The file or directory that could not grow.
    public var path: String
    /// What the storage library or the system said.
    public var cause: String
    public var reason: Reason

    public init(store: Store, path: String, cause: String, reason: Reason = .noSpace) {
        self.store = store
        self.path = path
        self.cause = cause
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .noSpace: "no space left on device: \(store.title) at \(path) cannot grow (\(cause)); free space on that filesystem"
        case .refused: "the filesystem refuses writes: \(store.title) at \(path) (\(cause)); check that filesystem (read-only, permissions, errors)"
        }
    }

    /// Refuses to start when a store's filesystem has less than `FreeSpace.minimum` available: the
    /// server could record nothing, and SQLite would only say "disk I/O error".
    public static func checkRoom(for store: Store, at path: String) throws(StorageFullError) {
        guard let free = FreeSpace.available(at: path), free < FreeSpace.minimum else { return }
        throw StorageFullError(store: store, path: path, cause: "\(free) bytes available")
    }

    public static func isNoSpace(errno code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT
    }

    /// SQLite's answer as a storage-full error, from its primary result code: `SQLITE_FULL` (13,
    /// its answer to ENOSPC on a write), or `SQLITE_IOERR` (10, its answer when growing the `-shm`
    /// index fails) while the filesystem under `path` has less than `FreeSpace.minimum` left. nil
    /// for any other code.
    public static func sqlite(resultCode: Int32, extendedResultCode: Int32, message: String?, store: Store, path: String) -> StorageFullError? {
        let (sqliteFull, sqliteIOError): (Int32, Int32) = (13, 10)
        switch resultCode {
        case sqliteFull: break
        case sqliteIOError: guard FreeSpace.isFull(at: path) else { return nil }
        default: return nil
        }
        return StorageFullError(store: store, path: path, cause: "SQLite error \(extendedResultCode): \(message ?? "result code \(resultCode)")")
    }
}

/// Space left on the filesystem that holds a path.
public enum FreeSpace {
    /// Below this a filesystem counts as full: one commit of the log or a read-model batch can need
    /// that much.
    public static let minimum: Int64 = 1 << 20

    /// Whether the filesystem of `path` has less than `minimum` left: an I/O error there is the
    /// full disk (SQLite's `SQLITE_IOERR` growing its index, LMDB's EIO for a write cut short).
    public static func isFull(at path: String) -> Bool {
        available(at: path).map { $0 < minimum } ?? false
    }

    /// Bytes an unprivileged write may still use on the filesystem of `path`, or of its nearest
    /// existing ancestor; nil when it cannot be told.
    public static func available(at path: String) -> Int64? {
        var url = URL(fileURLWithPath: path)
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" { url.deleteLastPathComponent() }
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}

/// Whether the last write to one store failed for want of space. Logs once when the store fills
/// and once when it takes writes again, not on every refused write.
public final class StorageFullLatch: Sendable {
    private struct Failure {
        var error: StorageFullError
        var since: Date
    }

    private let failure = NIOLockedValueBox<Failure?>(nil)
    private let logger: Logger

    public init(logger: Logger = Logger(label: "storage")) {
        self.logger = logger
    }

    public func record(_ error: StorageFullError) {
        let first = failure.withLockedValue { current in
            defer { current = current ?? Failure(error: error, since: Date()) }
            return current == nil
        }
        guard first else { return }
        let until = error.reason == .noSpace ? "space is freed" : "the filesystem takes them again"
        logger.error("\(error.reason == .noSpace ? "no space left on device" : "the filesystem refuses writes"): writes to \(error.store.title) fail until \(until)", metadata: [
            "store": "\(error.store.rawValue)", "path": "\(error.path)", "cause": "\(error.cause)",
        ])
    }

    /// A write to the store succeeded.
    public func recordSuccess() {
        guard let cleared = failure.withLockedValue({ current in defer { current = nil }; return current }) else { return }
        logger.notice("writes to \(cleared.error.store.title) work again", metadata: [
            "store": "\(cleared.error.store.rawValue)", "path": "\(cleared.error.path)",
        ])
    }

    /// The standing failure and when it began; a full one cleared first when its filesystem has room
    /// again, so that `/health` recovers without waiting for the next write. A refused one stands
    /// until a write succeeds.
    public var current: (error: StorageFullError, since: Date)? {
        guard let standing = failure.withLockedValue({ $0 }) else { return nil }
        if standing.error.reason == .noSpace, let free = FreeSpace.available(at: standing.error.path), free >= FreeSpace.minimum {
            recordSuccess()
            return nil
        }
        return (standing.error, standing.since)
    }
}
