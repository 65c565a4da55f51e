import ReadModels
import ArgumentParser
import Foundation
import PersonalData
import ProductHosting

/// `<product> backup DIR`: a consistent copy of the log, taken while the server runs. The read models
/// are not copied (they hold personal data decrypted; a restore folds them again) and the key store
/// is backed up on its own (`backup-keys`), on the erasure deadline's schedule.
public struct BackupCommand<Product: EventSourcedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "backup",
            abstract: "Copy the event log (LMDB, compacted) into a new directory while the server runs. Read models are folded again on restore; the key store is backed up apart (backup-keys)."
        )
    }

    @OptionGroup var global: ProductOptions<Product>

    @Argument(help: "A new or empty directory for the backup.")
    var directory: String

    public init() {}

    public func run() async throws {
        _ = global.logger()
        let data = try global.existingProductDirectory()
        // A node's copy may lag the shared log, and holds only the uploads this node took or read.
        if FileManager.default.fileExists(atPath: data.sharedLogMarker.path) {
            throw OperatorRefusal("\(global.dataDirectory.path) holds a node's copy of a shared log: back the log up with PostgreSQL's own tools (pg_dump: ops/postgresql.md)")
        }
        let manifest = try Backup.create(Product.self, from: global.dataDirectory, to: URL(fileURLWithPath: directory))
        print("backed up the log to position \(manifest.logHeadPosition) into \(directory); back the key store up apart (backup-keys)")
    }
}

/// `<product> restore DIR`: puts a backup in place, into an empty data directory (or over one, with the server stopped).
public struct RestoreCommand<Product: EventSourcedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "restore", abstract: "Restore a backup made by `\(Product.name) backup` into the data directory. Stop the server first.")
    }

    @OptionGroup var global: ProductOptions<Product>

    @Argument(help: "The backup directory.")
    var directory: String

    @Flag(help: "Replace an existing log and read models (the server must be stopped).")
    var force = false

    @Option(help: "The key store to restore with: the newest there is (the live data directory's keys/keys.sqlite, or the latest backup-keys copy). Without it the data directory's own is kept.")
    var keyStore: String?

    public init() {}

    public func run() async throws {
        let target = try global.productDirectory()
        if let pid = target.runningServer {
            throw OperatorRefusal("a server (pid \(pid)) is serving \(global.dataDirectory.path): stop it first, or it goes on serving the log it has open and what it acknowledges is lost")
        }
        _ = try Backup.manifest(of: URL(fileURLWithPath: directory), for: Product.self)
        // A restore refused into a directory that was not there (a mistyped --data-dir) leaves none behind.
        let isNew = !FileManager.default.fileExists(atPath: target.root.path)
        let (manifest, failures) = try await target.whileStopped("restore") {
            let manifest: Backup.Manifest
            do {
                manifest = try Backup.restore(
                    Product.self, from: URL(fileURLWithPath: directory), to: global.dataDirectory, keyStore: keyStore.map { URL(fileURLWithPath: $0) }, force: force
                )
            } catch {
                if isNew { try? FileManager.default.removeItem(at: target.root) }
                throw error
            }
            let logger = global.logger()
            let stores = try await global.openStores(logger: logger)
            defer { stores.close() }
            let runner = try stores.runner(batchSize: 5000, logger: logger)
            try runner.catchUp()
            return (manifest, try runner.status().compactMap(\.stopped))
        }
        guard failures.isEmpty else {
            throw OperatorRefusal("restored the log to position \(manifest.logHeadPosition), but its read models could not be folded: \(failures.joined(separator: "; ")). Was it restored with the key store its events were sealed under (--key-store)?")
        }
        print("restored the log to position \(manifest.logHeadPosition) (backup of \(manifest.createdAt.formatted(.iso8601))) into \(global.dataDirectory.path), and folded the read models from it")
    }
}

/// `<product> verify`: rebuild everything into a scratch directory and compare with the live read models.
public struct VerifyCommand<Product: EventSourcedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "verify",
            abstract: "Rebuild every projection from the log into a temporary directory and compare it, table by table, with the live read models."
        )
    }

    @OptionGroup var global: ProductOptions<Product>

    public init() {}

    public func run() async throws {
        _ = global.logger()
        let started = ContinuousClock.now
        let scratch = try global.existingProductDirectory().makeScratch("verify")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let report = try await Verify.run(Product.self, dataDirectory: global.dataDirectory, masterKey: try global.masterKey(), scratch: scratch)
        let elapsed = ContinuousClock.now - started
        if report.isIdentical, !report.stopped.isEmpty {
            print("identical up to position \(report.position), but stopped: \(report.stopped.joined(separator: "; "))")
            throw ExitCode(1)
        } else if report.isIdentical {
            print("identical: \(report.tables) tables rebuilt from the log up to position \(report.position) match the live read models (\(String(format: "%.1f", elapsed.seconds)) s)")
        } else {
            print("DIFFERENT at position \(report.position): \(report.differences.joined(separator: ", "))")
            throw ExitCode(1)
        }
    }
}

/// `<product> backup-keys FILE`: an online copy of the key store, kept apart from the data backups and
/// no longer than the erasure deadline (ops/privacy.md).
public struct BackupKeysCommand<Product: EventSourcedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "backup-keys",
            abstract: "Copy the key store (SQLite online backup, keys still wrapped) into a new file, while the server runs. Keep it apart from the data backups, no longer than the erasure deadline."
        )
    }

    @OptionGroup var global: ProductOptions<Product>

    @Argument(help: "A new file for the copy.")
    var file: String

    public init() {}

    public func run() async throws {
        _ = global.logger()
        try KeyStore.backup(fileAt: try global.existingProductDirectory().keyStorePath, to: file)
        print("backed up the key store into \(file) (mode 0600); keep it apart from the data backups, and no longer than the erasure deadline")
    }
}
