import Foundation
import GRDB

extension KeyStore {
    /// An online copy of the key store into a new file at `destination` (SQLite's backup API, while
    /// keys are being created; mode 0600). It holds the wrapped keys of every user not erased when
    /// it was taken, so it must never be restored alone: after a restore the host re-applies the
    /// erasures the log records (`applyErasures`), and key-store backups are kept no longer than the
    /// erasure deadline, after which no copy of an erased user's key is left (ops/keys.md).
    public func backup(to destination: String) throws {
        guard try PrivateFile.createEmpty(at: destination) else { throw Failure.backupDestinationExists(path: destination) }
        do {
            let copy = try DatabaseQueue(path: destination)
            defer { try? copy.close() }
            try pool.backup(to: copy)
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
    }
}
