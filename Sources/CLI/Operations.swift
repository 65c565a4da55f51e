import NuvieApp
import ArgumentParser
import Foundation

/// `nuvie backup DIR`: a consistent copy of the log and read models, taken while the server runs.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the event log (LMDB, compacted) and the read models (SQLite online backup) into a new directory while the server runs."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A new or empty directory for the backup.")
    var directory: String

    func run() async throws {
        _ = Bootstrap.logging(level: global.logLevel)
        let manifest = try Backup.create(from: global.dataDirectory, to: URL(fileURLWithPath: directory))
        print("backed up log to position \(manifest.logHeadPosition) and read models at \(manifest.checkpoints.values.min() ?? 0) into \(directory)")
    }
}

/// `nuvie restore DIR`: puts a backup in place, into an empty data directory (or over one, with the server stopped).
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup made by `nuvie backup` into the data directory. Stop the server first."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The backup directory.")
    var directory: String

    @Flag(help: "Replace an existing log and read models (the server must be stopped).")
    var force = false

    func run() async throws {
        _ = Bootstrap.logging(level: global.logLevel)
        let manifest = try Backup.restore(from: URL(fileURLWithPath: directory), to: global.dataDirectory, force: force)
        print("restored log to position \(manifest.logHeadPosition) (backup of \(manifest.createdAt.formatted(.iso8601))) into \(global.dataDirectory.path)")
    }
}

/// `nuvie verify`: rebuild everything into a scratch directory and compare with the live read models.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Rebuild every projection from the log into a temporary directory and compare it, table by table, with the live read models."
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        _ = Bootstrap.logging(level: global.logLevel)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-verify-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let started = ContinuousClock.now
        let report = try await Verify.run(dataDirectory: global.dataDirectory, scratch: scratch)
        let elapsed = ContinuousClock.now - started
        if report.isIdentical {
            print("identical: \(report.tables) tables rebuilt from the log up to position \(report.position) match the live read models (\(elapsed))")
        } else {
            print("DIFFERENT at position \(report.position): \(report.differences.joined(separator: ", "))")
            throw ExitCode(1)
        }
    }
}
