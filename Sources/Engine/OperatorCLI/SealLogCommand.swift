import ArgumentParser
import Foundation
import ProductHosting
import ReadModels

/// `<product> seal-log --into DIR`: the one-time upgrade of a data directory written before personal
/// fields were sealed (`LogSealing`). Run with the server stopped; then serve DIR, and destroy the old
/// directory and its backups.
public struct SealLogCommand<Product: EventSourcedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "seal-log",
            abstract: "Copy the log into a new data directory with every personal field sealed (positions, ids and times kept), and check the read models fold the same."
        )
    }

    @OptionGroup var global: ProductOptions<Product>

    @Option(help: "A new or empty directory for the sealed data directory.")
    var into: String

    public init() {}

    public func run() async throws {
        let logger = global.logger()
        let source = try global.existingProductDirectory()
        if let pid = source.runningServer { throw OperatorRefusal("a server (pid \(pid)) is serving \(source.root.path): stop it first") }
        let report = try await source.whileStopped("seal-log") {
            let scratch = try source.makeScratch("seal-log")
            defer { try? FileManager.default.removeItem(at: scratch) }
            return try await LogSealing.run(
                Product.self, from: source, into: URL(fileURLWithPath: into), masterKey: try global.masterKey(), scratch: scratch, logger: logger
            )
        }
        guard report.isIdentical else {
            print("DIFFERENT: the read models folded from the sealed log differ in \(report.differences.joined(separator: ", ")); do not use \(into)")
            throw ExitCode(1)
        }
        print("""
            sealed \(report.events) events into \(into) (\(report.renamedStreams) streams renamed); its \(report.tables) tables fold \
            identical to the old log's. Serve it with --data-dir \(into), then destroy \(source.root.path) and its backups.
            """)
    }
}
