import ArgumentParser
import Foundation
import SavryApp

/// `savry backup DIR`: the engine's online backup (log, key store), without the read models' copy of
/// every recipe in clear (`SavryBackups.create`).
struct SavryBackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the event log (LMDB, compacted) and the key store (SQLite online backup) into a new directory while the server runs; the read models are left empty (no recipe in clear in a backup) and folded again on restore."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A new or empty directory for the backup.")
    var directory: String

    func run() async throws {
        _ = global.logger()
        _ = try global.productDirectory()
        let manifest = try SavryBackups.create(from: global.dataDirectory, to: URL(fileURLWithPath: directory))
        print("backed up log to position \(manifest.logHeadPosition) and the key store into \(directory) (read models left empty: a restore folds them again)")
    }
}

/// `savry restore DIR [--force] [--key-store FILE]`: puts a backup in place with the newest key
/// store, so that erasures made since the backup hold (`SavryBackups.restore`).
struct SavryRestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup made by `savry backup` into the data directory (stop the server first), with the newest key store: erasures since the backup hold."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The backup directory.")
    var directory: String

    @Flag(help: "Replace an existing log and read models (the server must be stopped). The data directory's key store is kept.")
    var force = false

    @Option(help: "The newest copy of the key store (keys/keys.sqlite), when the data directory has none (a new machine): erasures made since the backup then hold. Without it and without a key store in the data directory, the backup's own is restored.")
    var keyStore: String?

    func run() async throws {
        let logger = global.logger()
        let restored = try await SavryBackups.restore(
            from: URL(fileURLWithPath: directory), to: global.dataDirectory, force: force, keyStore: keyStore,
            masterKey: { try global.masterKey() }, logger: logger
        )
        let keys = switch restored.keyStore {
        case .dataDirectory: "the data directory's own key store (kept)"
        case .given(let path): "the key store \(path)"
        case .backup: "the backup's key store; WARNING: anyone erased after the backup was taken can be read again, restore with --key-store <the newest keys.sqlite> if one exists"
        }
        print("""
            restored log to position \(restored.manifest.logHeadPosition) (backup of \(restored.manifest.createdAt.formatted(.iso8601))) into \
            \(global.dataDirectory.path) with \(keys); \(restored.erasuresRecordedAgain.count) erasures since the backup recorded again; \
            read models folded to position \(restored.readModelsPosition)
            """)
    }
}
