import EventLog
import GRDB

extension StorageFullError {
    /// `error` as a storage-full error when SQLite said the disk is full (`sqlite(resultCode:…)`);
    /// nil for any other error.
    public static func sqlite(_ error: any Error, store: Store, path: String) -> StorageFullError? {
        if let full = error as? StorageFullError { return full }
        guard let error = error as? DatabaseError else { return nil }
        return sqlite(
            resultCode: error.resultCode.rawValue, extendedResultCode: error.extendedResultCode.rawValue, message: error.message, store: store, path: path
        )
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
