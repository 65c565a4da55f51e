import ArgumentParser
import Foundation
import ProductHosting
import ReadModels

/// `<product> log-copy --to postgres://…`: the embedded log and key store of the data directory, moved
/// into PostgreSQL (`LogCopy`). Safe to run again; run it a last time with the server stopped, then
/// serve every node with `--log-url`.
public struct LogCopyCommand<Product: EventSourcedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "log-copy",
            abstract: "Copy the data directory's log (every event at its position) and key store into PostgreSQL, resuming where an earlier copy stopped."
        )
    }

    @OptionGroup var global: ProductOptions<Product>

    @Option(help: "The PostgreSQL database to copy into: postgres://user:password@host:port/database.")
    var to: String

    public init() {}

    public func run() async throws {
        let logger = global.logger()
        let directory = try global.existingProductDirectory()
        let report = try await LogCopy.run(Product.self, from: directory, to: to, masterKey: try global.masterKey(), logger: logger)
        let running = report.marked
            ? " This directory now holds the shared log (\(directory.sharedLogMarker.path)): it serves only with --log-url; to serve it alone again, remove that file."
            : " The directory is not marked as holding the shared log (a server or a command held it, or its lock could not be taken: see above): stop what holds it, run log-copy again, then serve with --log-url."
        print("""
            copied \(report.copiedEvents) events (the database now holds positions 1–\(report.head)), \(report.keys) keys, \(report.erasures) \
            erasures and \(report.files) uploaded files.\(running)
            """)
    }
}
