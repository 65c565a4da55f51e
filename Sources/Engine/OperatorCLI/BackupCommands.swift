import ReadModels
import ArgumentParser
import Foundation
import ProductHosting

/// `<product> backup DIR`: a consistent copy of the log, read models and key store, taken while the server runs.
public struct BackupCommand<Product: EventSourcedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "backup",
            abstract: "Copy the event log (LMDB, compacted), the read models and the key store (SQLite online backups) into a new directory while the server runs."
        )
    }

    @OptionGroup var global: ProductOptions<Product>

    @Argument(help: "A new or empty directory for the backup.")
    var directory: String

    public init() {}

    public func run() async throws {
        _ = global.logger()
        _ = try global.productDirectory()
        let manifest = try Backup.create(Product.self, from: global.dataDirectory, to: URL(fileURLWithPath: directory))
        print("backed up log to position \(manifest.logHeadPosition) and read models at \(manifest.checkpoints.values.min() ?? 0) into \(directory)")
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

    public init() {}

    public func run() async throws {
        _ = global.logger()
        let manifest = try Backup.restore(Product.self, from: URL(fileURLWithPath: directory), to: global.dataDirectory, force: force)
        print("restored log to position \(manifest.logHeadPosition) (backup of \(manifest.createdAt.formatted(.iso8601))) into \(global.dataDirectory.path)")
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
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("\(Product.name)-verify-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let started = ContinuousClock.now
        _ = try global.productDirectory()
        let report = try await Verify.run(Product.self, dataDirectory: global.dataDirectory, masterKey: try global.masterKey(), scratch: scratch)
        let elapsed = ContinuousClock.now - started
        if report.isIdentical {
            print("identical: \(report.tables) tables rebuilt from the log up to position \(report.position) match the live read models (\(elapsed))")
        } else {
            print("DIFFERENT at position \(report.position): \(report.differences.joined(separator: ", "))")
            throw ExitCode(1)
        }
    }
}
