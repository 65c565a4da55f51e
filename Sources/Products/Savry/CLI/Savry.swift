import ArgumentParser
import Hummingbird
import Logging
import OperatorCLI
import SavryApp
import SavryProjections

@main
struct Savry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Savry's private recipes on the event-sourced engine: an LMDB event log, SQLite read models, the iOS contract over HTTP.",
        subcommands: [
            ServeCommand<SavryProduct>.self, AsOfCommand<SavryProduct, RecipeAsOf>.self,
        ] + OperatorCommands<SavryProduct>.all,
        defaultSubcommand: ServeCommand<SavryProduct>.self
    )
}

extension SavryProduct: ServedProduct {
    public static let serveAbstract = "Serve the recipes API on port 3000 (demo mode on a new data directory: the demo cooks' recipes and dev sign-in)."

    public static func application(_ configuration: SavryConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
        try await buildSavryApplication(configuration: configuration, logger: logger)
    }
}
