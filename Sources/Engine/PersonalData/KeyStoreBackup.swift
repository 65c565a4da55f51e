import Foundation
import GRDB

extension KeyStore {
    /// An online copy of the key store into a new file at `destination` (SQLite's backup API, while
    /// keys are being created; mode 0600). It holds the wrapped keys of every user not erased when
    /// it was taken, so it must never be restored alone: after a restore the host re-applies the
    /// erasures the log records (`applyErasures`), and key-store backups are kept no longer than the
    /// erasure deadline, after which no copy of an erased user's key is left (ops/privacy.md).
    public func backup(to destination: String) throws {
        try Self.copy(to: destination) { try pool.backup(to: $0) }
    }

    /// Whether the file at `path` holds no key and no erasure: what a first start leaves (a new
    /// install started once before its restore), which a backed-up key store may replace.
    public static func holdsNothing(fileAt path: String) throws -> Bool {
        var configuration = KeyStoreSchema.configuration
        configuration.readonly = true
        let file = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? file.close() }
        return try file.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM data_key) OR EXISTS (SELECT 1 FROM destroyed_key)") == false
        }
    }

    /// Removes the file at `path` with its WAL and shared-memory files.
    public static func remove(fileAt path: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// The same, from the file at `path`, without opening it as a store (no master key needed: the
    /// keys stay wrapped). Also what a restore uses to put a backed-up key store in place.
    public static func backup(fileAt path: String, to destination: String) throws {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: destination).deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
        )
        let source = try DatabaseQueue(path: path, configuration: KeyStoreSchema.configuration)
        defer { try? source.close() }
        try copy(to: destination) { try source.backup(to: $0) }
    }

    private static func copy(to destination: String, _ backup: (DatabaseQueue) throws -> Void) throws {
        guard try PrivateFile.createEmpty(at: destination) else { throw Failure.backupDestinationExists(path: destination) }
        do {
            let copy = try DatabaseQueue(path: destination)
            defer { try? copy.close() }
            try backup(copy)
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
    }
}
