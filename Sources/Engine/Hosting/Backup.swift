import EventLog
import Foundation
import PersonalData
import ReadModels

/// Consistent online backups of a product's data directory, and restoring one.
///
/// A backup holds `log/` (LMDB `mdb_env_copy2` with compaction: a consistent snapshot while appends go
/// on), `files/` when the product keeps uploads (sealed under their owners' keys, so they are as safe
/// to keep as the log; copied after the log, so every file an event in the copy names is in it) and
/// `manifest.json` (which names the product). Nothing else, on purpose: the read models hold
/// personal data decrypted, so a copy of them would outlive an erasure; a restore folds them again
/// from the log instead (the first start catches up from position 0, `/health` says `catching_up`).
///
/// The key store is not in it either: it is backed up on its own (`<product> backup-keys`), kept no
/// longer than the erasure deadline, and a restore takes the newest key store there is (the live
/// one, or its latest backup). So a backup from before an erasure, restored, reads with a key store
/// that has the erasure: the user's fields stay sealed, and the first start records their erasure
/// again in the restored log (ops/privacy.md). A demo's backup carries its generated master key, a
/// demo having nowhere else to keep it.
public enum Backup {
    public struct Manifest: Codable, Sendable, Equatable {
        /// Absent in backups made before data directories were marked: the restored directory is then
        /// claimed on its first start, by its events (`DataDirectory.claim`).
        public var product: String?
        public var createdAt: Date
        public var logHeadPosition: UInt64
        public var demoMode: Bool
    }

    public enum Failure: Error, CustomStringConvertible {
        case destinationNotEmpty(String)
        case notABackup(String)
        case dataDirectoryInUse(String)
        case anotherProduct(String, backup: String, expected: String)
        case noKeyStore(String)
        case keyStoreInPlace(String)

        public var description: String {
            switch self {
            case .destinationNotEmpty(let path): "\(path) exists and is not empty; back up into a new directory"
            case .notABackup(let path): "\(path) has no manifest.json and log/: not a backup"
            case .anotherProduct(let path, let backup, let expected): "\(path) is a backup of \(backup), not \(expected)"
            case .dataDirectoryInUse(let path): "\(path) already holds a log; restore into an empty data directory (or pass --force with the server stopped)"
            case .keyStoreInPlace(let path):
                "\(path) is in place, and the newest key store there is: restore without --key-store, which keeps it"
            case .noKeyStore(let path):
                "no key store at \(path): pass --key-store with the newest one there is (the live keys/keys.sqlite, or the latest backup-keys copy)"
            }
        }
    }

    /// Whether two paths name one file (one device and inode: symlinks and bind mounts included).
    static func sameFile(_ a: String, _ b: String) throws -> Bool {
        func identity(_ path: String) throws -> [UInt64] {
            let attributes = try FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
            return [FileAttributeKey.systemNumber, .systemFileNumber].compactMap { (attributes[$0] as? NSNumber)?.uint64Value }
        }
        let (x, y) = (try identity(a), try identity(b))
        return x.count == 2 && x == y
    }

    @discardableResult
    public static func create<Product: EventSourcedProduct>(_ product: Product.Type, from dataDirectory: URL, to destination: URL) throws -> Manifest {
        let log = try EventLog(configuration: .init(directory: DataDirectory(dataDirectory).log))
        defer { log.close() }
        return try create(product, of: log, in: DataDirectory(dataDirectory), to: destination)
    }

    /// The same, from a log already open (a server's: LMDB must not be opened twice in one process).
    @discardableResult
    public static func create<Product: EventSourcedProduct>(
        _ product: Product.Type, of log: EventLog, in source: DataDirectory, to destination: URL
    ) throws -> Manifest {
        let files = FileManager.default
        if files.fileExists(atPath: destination.path), !(try files.contentsOfDirectory(atPath: destination.path)).isEmpty {
            throw Failure.destinationNotEmpty(destination.path)
        }
        try files.createDirectory(at: destination.appendingPathComponent("log"), withIntermediateDirectories: true)
        let head = try log.backup(to: destination.appendingPathComponent("log"))
        if files.fileExists(atPath: source.files.path) {
            try files.copyItem(at: source.files, to: destination.appendingPathComponent(source.files.lastPathComponent))
        }
        if source.isDemo, files.fileExists(atPath: source.demoMasterKey.path) {
            try files.copyItem(at: source.demoMasterKey, to: destination.appendingPathComponent(source.demoMasterKey.lastPathComponent))
        }
        // LMDB's copy and Foundation's are not synced: a backup reported as made must survive a power cut.
        // The manifest goes last, so a backup that has one is whole.
        try DurableFile.syncTree(destination)
        let manifest = Manifest(product: Product.name, createdAt: Date(), logHeadPosition: head, demoMode: source.isDemo)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try DurableFile.replace(destination.appendingPathComponent("manifest.json"), with: try encoder.encode(manifest))
        try DurableFile.syncParent(of: destination)
        return manifest
    }

    /// The manifest of the backup at `backup`, refused when it is none, or another product's.
    public static func manifest<Product: EventSourcedProduct>(of backup: URL, for product: Product.Type) throws -> Manifest {
        guard let data = try? Data(contentsOf: backup.appendingPathComponent("manifest.json")),
              FileManager.default.fileExists(atPath: backup.appendingPathComponent("log/data.mdb").path)
        else { throw Failure.notABackup(backup.path) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let manifest = try decoder.decode(Manifest.self, from: data)
        if let backedUp = manifest.product, backedUp != Product.name {
            throw Failure.anotherProduct(backup.path, backup: backedUp, expected: Product.name)
        }
        return manifest
    }

    /// Copies a backup's log into `dataDirectory`, which must not hold a log unless `force` (server
    /// stopped); its read models are removed, to be folded again. `keyStore` (a key-store file: the
    /// live one or its newest backup) is put in place; without one the directory must already have
    /// its key store (a restore over the live directory keeps it).
    @discardableResult
    public static func restore<Product: EventSourcedProduct>(
        _ product: Product.Type, from backup: URL, to dataDirectory: URL, keyStore: URL?, force: Bool = false
    ) throws -> Manifest {
        let files = FileManager.default
        let manifest = try Self.manifest(of: backup, for: product)
        let target = DataDirectory(dataDirectory)
        // One a first start made (no key, no erasure) is no newer than any: a backed-up one may replace it.
        var hasKeyStore = files.fileExists(atPath: target.keyStorePath)
        if hasKeyStore, let keyStore, try !Self.sameFile(keyStore.path, target.keyStorePath), try KeyStore.holdsNothing(fileAt: target.keyStorePath) {
            hasKeyStore = false
        }
        if keyStore == nil, !hasKeyStore { throw Failure.noKeyStore(target.keyStorePath) }
        if let keyStore, !files.fileExists(atPath: keyStore.path) { throw Failure.noKeyStore(keyStore.path) }
        // The directory's own key store is the newest there is: never replaced, whatever path names it.
        if let keyStore, hasKeyStore, try !Self.sameFile(keyStore.path, target.keyStorePath) {
            throw Failure.keyStoreInPlace(target.keyStorePath)
        }
        if let marked = target.markedProduct, marked != Product.name {
            throw DataDirectoryError.belongsToAnotherProduct(dataDirectory.path, marked: marked, expected: Product.name)
        }
        let replacesLog = files.fileExists(atPath: target.log.path)
        if replacesLog, !force { throw Failure.dataDirectoryInUse(dataDirectory.path) }
        // Everything is copied beside the directory first, so a copy that fails (a full disk, a key
        // store that is not one) leaves the directory as it was, and the same command can be run again.
        let staging = try target.makeScratch("restore")
        defer { try? files.removeItem(at: staging) }
        let stagedLog = staging.appendingPathComponent("log"), stagedFiles = staging.appendingPathComponent("files")
        let stagedKeyStore = staging.appendingPathComponent("keys.sqlite").path
        try files.copyItem(at: backup.appendingPathComponent("log"), to: stagedLog)
        let backedUpFiles = backup.appendingPathComponent(target.files.lastPathComponent)
        let restoresFiles = files.fileExists(atPath: backedUpFiles.path)
        if restoresFiles { try files.copyItem(at: backedUpFiles, to: stagedFiles) }
        let restoresKeyStore = keyStore != nil && !hasKeyStore
        if let keyStore, restoresKeyStore { try KeyStore.backup(fileAt: keyStore.path, to: stagedKeyStore) }
        try DurableFile.syncTree(staging)

        // From here the directory changes: its own log goes first and the backup's comes last, so
        // whatever stops the restore meanwhile, a directory that holds a log holds all of one.
        try? files.removeItem(at: target.read)
        if replacesLog {
            try files.removeItem(at: target.log)
            try DurableFile.syncParent(of: target.log)
        }
        if restoresKeyStore {
            try KeyStore.remove(fileAt: target.keyStorePath)
            try files.createDirectory(at: target.keys, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try files.moveItem(atPath: stagedKeyStore, toPath: target.keyStorePath)
        }
        if restoresFiles {
            if files.fileExists(atPath: target.files.path) { try files.removeItem(at: target.files) }
            try files.moveItem(at: stagedFiles, to: target.files)
        }
        let demoKey = backup.appendingPathComponent(target.demoMasterKey.lastPathComponent)
        if manifest.demoMode, files.fileExists(atPath: demoKey.path), !files.fileExists(atPath: target.demoMasterKey.path) {
            try files.copyItem(at: demoKey, to: target.demoMasterKey)
        }
        if manifest.product != nil { try Data("\(Product.name)\n".utf8).write(to: target.productMarker, options: .atomic) }
        if manifest.demoMode { try Data().write(to: target.demoMarker) }
        try files.moveItem(at: stagedLog, to: target.log)
        try DurableFile.syncTree(target.keys)
        try DurableFile.syncParent(of: target.log)
        return manifest
    }
}
