import ArgumentParser
import EventLog
import Foundation
import HTTPServing
import OperatorCLI
import Logging
import PersonalData
import ProductHosting
import SavryAPI
import SavryApp
import SavryProjections

/// `savry as-of --position N | --time T [--recipe ID | --serve PORT]`: the state as it was.
struct AsOf: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "as-of",
        abstract: "The state as of a log position or an instant: one recipe as it was, or the whole API served read-only on a port."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var when: AsOfOptions

    @Option(help: "Print this recipe as GET /api/app/recipes/{id} showed it then.")
    var recipe: String?

    @Option(help: "Serve that state read-only on this port (every write answers 405) until stopped.")
    var serve: Int?

    @Option(help: "The address --serve listens on (env SAVRY_HOST; default 127.0.0.1).")
    var host: String?

    func validate() throws {
        guard (recipe == nil) != (serve == nil) else { throw ValidationError("give exactly one of --recipe and --serve") }
    }

    /// Personal fields are opened with the live key store, never a copy: a user erased since reads as
    /// erased in every past state too (their recipes are not there).
    func run() async throws {
        if let port = serve {
            let logger = Bootstrap.logging(SavryProduct.self, level: global.logLevel)
            let live = try global.openLogAndKeys()
            defer { live.close() }
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("savry-as-of-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            return try await serveReadOnly(live.log, personalData: live.personalData, at: try when.resolve(in: live.log).position, directory: scratch, port: port, logger: logger)
        }
        let recipe = recipe ?? ""
        let found = try global.readModels(asOf: when) { database, position, at in
            guard let found = try RecipeQueries(database: database).recipe(id: recipe) else {
                throw ValidationError("no recipe \(recipe) as of position \(position) (\(at)): not created yet, or deleted")
            }
            FileHandle.standardError.write(Data("recipe \(found.id) as of position \(position) (\(at))\n".utf8))
            return found
        }
        print(try RecipeDocument.json(found))
    }

    /// Copies the log up to `position` and its read models into a data directory and serves it with
    /// every write refused, its personal fields opened with the live key store.
    private func serveReadOnly(
        _ log: EventLog, personalData: KeyStoreCipher, at position: UInt64, directory: URL, port: Int, logger: Logger
    ) async throws {
        try await TimeTravel.dataDirectory(SavryProduct.self, of: log, personalData: personalData, upTo: position, at: directory, logger: logger)
        var configuration = SavryConfiguration(dataDirectory: directory)
        try configuration.apply(EnvironmentSettings())
        configuration.keysFrom = global.dataDirectory
        configuration.demoMode = DataDirectory(global.dataDirectory).isDemo
        configuration.host = host ?? EnvironmentSettings().text("SAVRY_HOST") ?? "127.0.0.1"
        configuration.port = port
        configuration.readOnly = true
        configuration.metricsRegistry = Bootstrap.metrics(SavryProduct.self)
        if configuration.jwtSecret == nil, configuration.demoMode {
            let secret = DataDirectory(global.dataDirectory).root.appendingPathComponent("jwt-secret")
            configuration.jwtSecret = try? String(contentsOf: secret, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        logger.info("serving the state as of a log position, read-only", metadata: [
            "position": "\(position)", "address": "\(configuration.host):\(configuration.port)",
        ])
        try await buildSavryApplication(configuration: configuration, logger: logger).runService()
    }
}
