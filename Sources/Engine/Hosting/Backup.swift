import EventLog
import Foundation
import PersonalData
import ReadModels

/// Consistent online backups of a product's data directory, and restoring one.
///
/// A backup holds `log/` (LMDB `mdb_env_copy2` with compaction: a consistent snapshot while appends go
/// on), `read.sqlite` and `keys.sqlite` (SQLite's online backup API) and `manifest.json` (which names
/// the product). The read models are copied first, so they never include an event the copied log
/// lacks; after a restore the projection runner folds whatever the log has beyond their
/// checkpoints. The key store is copied last, so it holds every key the copied log was sealed with
/// (a key is stored before anything is sealed under it); the start after a restore re-applies the
/// log's erasures to it (ops/privacy.md). The master key is never in a backup, except a demo's.
public enum Backup {
    public struct Manifest: Codable, Sendable, Equatable {
        /// Absent in backups made before data directories were marked: the restored directory is then
        /// claimed on its first start, by its events (`DataDirectory.claim`).
        public var product: String?
        public var createdAt: Date
        public var logHeadPosition: UInt64
        public var checkpoints: [String: UInt64]
        public var demoMode: Bool
    }

    public enum Failure: Error, CustomStringConvertible {
        case destinationNotEmpty(String)
        case notABackup(String)
        case dataDirectoryInUse(String)
        case anotherProduct(String, backup: String, expected: String)

        public var description: String {
            switch self {
            case .destinationNotEmpty(let path): "\(path) exists and is not empty; back up into a new directory"
            case .notABackup(let path): "\(path) has no manifest.json, log/ and read.sqlite: not a backup"
            case .anotherProduct(let path, let backup, let expected): "\(path) is a backup of \(backup), not \(expected)"
            case .dataDirectoryInUse(let path): "\(path) already holds a log; restore into an empty data directory (or pass --force with the server stopped)"
            }
        }
    }

    static let keyStoreFile = "keys.sqlite"

    @discardableResult
    public static func create<Product: EventSourcedProduct>(_ product: Product.Type, from dataDirectory: URL, to destination: URL) throws -> Manifest {
        let files = FileManager.default
        if files.fileExists(atPath: destination.path), !(try files.contentsOfDirectory(atPath: destination.path)).isEmpty {
            throw Failure.destinationNotEmpty(destination.path)
        }
        try files.createDirectory(at: destination.appendingPathComponent("log"), withIntermediateDirectories: true)
        let readModels = DataDirectory(dataDirectory).readDatabasePath
        let checkpoints = try ReadDatabase.checkpoints(ofFileAt: readModels)
        try ReadDatabase.backup(fileAt: readModels, to: destination.appendingPathComponent("read.sqlite").path)
        let source = DataDirectory(dataDirectory)
        let log = try EventLog(configuration: .init(directory: source.log))
        defer { log.close() }
        try log.backup(to: destination.appendingPathComponent("log"))
        if files.fileExists(atPath: source.keyStorePath) {
            try KeyStore.backup(fileAt: source.keyStorePath, to: destination.appendingPathComponent(Self.keyStoreFile).path)
        }
        if files.fileExists(atPath: source.demoMarker.path), files.fileExists(atPath: source.demoMasterKey.path) {
            try files.copyItem(at: source.demoMasterKey, to: destination.appendingPathComponent(source.demoMasterKey.lastPathComponent))
        }
        let manifest = Manifest(
            product: Product.name, createdAt: Date(), logHeadPosition: log.headPosition, checkpoints: checkpoints,
            demoMode: files.fileExists(atPath: DataDirectory(dataDirectory).demoMarker.path)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(manifest).write(to: destination.appendingPathComponent("manifest.json"))
        return manifest
    }

    /// Copies a backup into `dataDirectory`, which must not hold a log unless `force` (server stopped).
    @discardableResult
    public static func restore<Product: EventSourcedProduct>(
        _ product: Product.Type, from backup: URL, to dataDirectory: URL, force: Bool = false
    ) throws -> Manifest {
        let files = FileManager.default
        let manifestURL = backup.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: manifestURL),
              files.fileExists(atPath: backup.appendingPathComponent("log/data.mdb").path),
              files.fileExists(atPath: backup.appendingPathComponent("read.sqlite").path)
        else { throw Failure.notABackup(backup.path) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let manifest = try decoder.decode(Manifest.self, from: data)
        if let backedUp = manifest.product, backedUp != Product.name {
            throw Failure.anotherProduct(backup.path, backup: backedUp, expected: Product.name)
        }
        let target = DataDirectory(dataDirectory)
        if let marked = target.markedProduct, marked != Product.name {
            throw DataDirectoryError.belongsToAnotherProduct(dataDirectory.path, marked: marked, expected: Product.name)
        }
        if files.fileExists(atPath: target.log.path) {
            guard force else { throw Failure.dataDirectoryInUse(dataDirectory.path) }
            try files.removeItem(at: target.log)
        }
        try? files.removeItem(at: target.read)
        try files.createDirectory(at: target.read, withIntermediateDirectories: true)
        try files.copyItem(at: backup.appendingPathComponent("log"), to: target.log)
        try files.copyItem(at: backup.appendingPathComponent("read.sqlite"), to: URL(fileURLWithPath: target.readDatabasePath))
        try? files.removeItem(at: target.keys)
        let keyStore = backup.appendingPathComponent(Self.keyStoreFile)
        if files.fileExists(atPath: keyStore.path) {
            try KeyStore.backup(fileAt: keyStore.path, to: target.keyStorePath)
        }
        let demoKey = backup.appendingPathComponent(target.demoMasterKey.lastPathComponent)
        if manifest.demoMode, files.fileExists(atPath: demoKey.path) {
            try? files.removeItem(at: target.demoMasterKey)
            try files.copyItem(at: demoKey, to: target.demoMasterKey)
        }
        if manifest.product != nil { try Data("\(Product.name)\n".utf8).write(to: target.productMarker, options: .atomic) }
        if manifest.demoMode { try Data().write(to: target.demoMarker) }
        return manifest
    }
}
