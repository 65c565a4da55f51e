import EventSourcing
import Foundation
import Logging
import PersonalData
import ProductHosting
import ReadModels
import SavryProjections

/// `savry backup` and `savry restore`: the engine's `Backup`, made to keep Savry's erasures.
///
/// - A backup holds no personal data in clear: the engine's copies the read models, which hold every
///   recipe as the API shows it; Savry's puts empty read models in their place (the log, sealed, is
///   the truth; a restore folds it again).
/// - A restore keeps the newest key store rather than the backup's: the data directory's own (every
///   erasure since the backup is a tombstone there), or one given. The log from before an erasure
///   then opens the erased user's fields as absent, their `user-erased` is recorded again, and the
///   read models are folded again from position 0, so none of their recipes is served. Restoring the
///   backup's own key store (none newer exists) brings back whoever was erased since: it says so.
public enum SavryBackups {
    public struct Restored: Sendable {
        public var manifest: Backup.Manifest
        /// Where the key store restored with comes from.
        public var keyStore: KeyStoreSource
        /// Users erased since the backup whose `user-erased` the restored log lacked, recorded again.
        public var erasuresRecordedAgain: [Int64]
        public var readModelsPosition: UInt64
    }

    public enum KeyStoreSource: Equatable, Sendable {
        /// The data directory's own, newer than the backup.
        case dataDirectory
        /// The file given.
        case given(String)
        /// The backup's own: erasures since the backup do not hold.
        case backup
    }

    public enum Failure: Error, CustomStringConvertible {
        case served(pid: Int32, path: String)
        case noKeyStore(String)

        public var description: String {
            switch self {
            case .served(let pid, let path): "a server (pid \(pid)) is serving \(path): stop it before restoring"
            case .noKeyStore(let path): "\(path) is not a file: give the newest copy of the key store (keys/keys.sqlite)"
            }
        }
    }

    /// The engine's backup, with empty read models in place of the copied ones.
    @discardableResult
    public static func create(from dataDirectory: URL, to destination: URL) throws -> Backup.Manifest {
        let manifest = try Backup.create(SavryProduct.self, from: dataDirectory, to: destination)
        let copied = destination.appendingPathComponent("read.sqlite")
        let empty = destination.appendingPathComponent("read-empty-\(UUID().uuidString).sqlite")
        let database = try ReadDatabase(path: empty.path, projections: SavryProduct.projections)
        try database.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copied.path + suffix) }
        try FileManager.default.moveItem(at: empty, to: copied)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: empty.path + suffix) }
        return manifest
    }

    /// Restores `backup` into `dataDirectory` (which must not be served; `force` to replace its log)
    /// with the newest key store: `keyStore` when given, else the directory's own when it has one,
    /// else the backup's. Then opens the stores (the engine reconciles the key store with the log),
    /// records again the erasures the key store holds and the log lacks, and folds the read models
    /// from position 0.
    public static func restore(
        from backup: URL, to dataDirectory: URL, force: Bool, keyStore: String?, masterKey: () throws -> MasterKey, logger: Logger
    ) async throws -> Restored {
        let files = FileManager.default
        let target = DataDirectory(dataDirectory)
        if let pid = target.runningServer { throw Failure.served(pid: pid, path: dataDirectory.path) }
        if let keyStore, !files.fileExists(atPath: keyStore) { throw Failure.noKeyStore(keyStore) }
        // Kept beside the data directory's files, never in a temporary directory: losing it would
        // lose every user's key.
        let kept = target.root.appendingPathComponent("keys.kept-\(UUID().uuidString.prefix(8).lowercased())")
        let source: KeyStoreSource
        if let keyStore {
            source = .given(keyStore)
            try files.createDirectory(at: kept, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try files.copyItem(atPath: keyStore, toPath: kept.appendingPathComponent("keys.sqlite").path)
            for suffix in ["-wal", "-shm"] where files.fileExists(atPath: keyStore + suffix) {
                try files.copyItem(atPath: keyStore + suffix, toPath: kept.appendingPathComponent("keys.sqlite" + suffix).path)
            }
        } else if files.fileExists(atPath: target.keyStorePath) {
            source = .dataDirectory
            try files.moveItem(at: target.keys, to: kept)
        } else {
            source = .backup
        }
        let manifest: Backup.Manifest
        do {
            manifest = try Backup.restore(SavryProduct.self, from: backup, to: dataDirectory, force: force)
        } catch {
            if source == .dataDirectory, !files.fileExists(atPath: target.keys.path) { try? files.moveItem(at: kept, to: target.keys) }
            if case .given = source { try? files.removeItem(at: kept) }
            throw error
        }
        if source != .backup {
            try? files.removeItem(at: target.keys)
            try files.moveItem(at: kept, to: target.keys)
            for name in (try? files.contentsOfDirectory(atPath: target.keys.path)) ?? [] {
                try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.keys.appendingPathComponent(name).path)
            }
        }
        // The copied read models were folded when every user was readable: folded again instead.
        try? files.removeItem(at: target.read)

        let stores = try await ProductStores<SavryProduct>.open(directory: target, masterKey: try masterKey(), logger: logger)
        defer { stores.close() }
        let recordedAgain = try await recordMissingErasures(stores)
        let runner = try stores.runner(logger: logger)
        try runner.catchUp()
        return Restored(manifest: manifest, keyStore: source, erasuresRecordedAgain: recordedAgain, readModelsPosition: runner.appliedPosition)
    }

    /// Appends `user-erased` (initiated by the key store) for every user the key store holds a
    /// tombstone of and the log has no erasure for: a log restored from before their erasure. The
    /// engine does this on open only when the key store has seen a longer log than this one
    /// (`reconcileErasures`), which a key store last reconciled before the backup was taken has not.
    static func recordMissingErasures(_ stores: ProductStores<SavryProduct>) async throws -> [Int64] {
        let tombstones = try stores.keys.erasures().map(\.userId)
        guard !tombstones.isEmpty else { return [] }
        var inLog = Set<Int64>()
        var next: UInt64 = 1
        while true {
            let batch = try stores.log.read(from: next, limit: 10_000)
            guard let last = batch.last else { break }
            for record in batch where record.type == UserErased.typeName {
                inLog.insert(try JSONDecoder().decode(UserErased.self, from: record.payload).userId)
            }
            next = last.position + 1
        }
        var recorded: [Int64] = []
        for userId in tombstones where !inLog.contains(userId) {
            let erasure = SavryProduct.Catalog.userErased(UserErased(userId: userId, initiator: .keyStore))
            _ = try await stores.store.append([erasure], to: SavryProduct.userStream(userId), eventId: .timeOrdered())
            recorded.append(userId)
        }
        return recorded
    }
}
