import EventLog
import GRDB

extension StorageFullError {
    /// `error` as a storage-full error when SQLite said the disk is full (`SQLITE_FULL`, its answer
    /// to ENOSPC on a write), or could not do I/O (`SQLITE_IOERR`, its answer when growing the
    /// `-shm` index fails) while the filesystem under `path` has less than `FreeSpace.minimum` left.
    /// nil for any other error.
    public static func sqlite(_ error: any Error, store: Store, path: String) -> StorageFullError? {
        if let full = error as? StorageFullError { return full }
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL:
            break
        case .SQLITE_IOERR:
            guard let free = FreeSpace.available(at: path), free < FreeSpace.minimum else { return nil }
        default:
            return nil
        }
        return StorageFullError(store: store, path: path, cause: "SQLite error \(error.extendedResultCode.rawValue): \(error.message ?? "\(error.resultCode)")")
    }

    /// Runs `body`, turning SQLite's disk-full errors about the file at `path` into `StorageFullError`.
    public static func mappingSQLite<T>(store: Store, path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw sqlite(error, store: store, path: path) ?? error
        }
    }
}
