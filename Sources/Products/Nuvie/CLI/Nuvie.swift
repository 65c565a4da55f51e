import ArgumentParser
import Hummingbird
import Logging
import NuvieApp
import NuvieProjections
import OperatorCLI

@main
struct Nuvie: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Nuvie's event-sourced backend: an LMDB event log, SQLite read models, the iOS contract over HTTP.",
        subcommands: [
            ServeCommand<NuvieProduct>.self, Import.self, AsOfCommand<NuvieProduct, UserAsOfView>.self, Eval.self,
        ] + OperatorCommands<NuvieProduct>.all,
        defaultSubcommand: ServeCommand<NuvieProduct>.self
    )

    static func main() async {
        await mainOnEventLoops()
    }
}

extension NuvieProduct: ServedProduct {
    public static let serveAbstract = "Serve the HTTP API on port 8080 (demo mode on a new data directory: the bundled MovieLens data and dev sign-in)."

    public struct ServeFlags: ParsableArguments {
        @Option(help: "The MovieLens directory demo mode imports (default: demo/ml-latest-small here, else beside the sources this binary was built from).")
        var demoDataset: String?

        public init() {}
    }

    public static func configure(_ configuration: inout NuvieConfiguration, with flags: ServeFlags) throws {
        if configuration.demoMode { configuration.demoDataset = try DemoDataset.locate(flags.demoDataset) }
    }

    public static func application(_ configuration: NuvieConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
        try await buildNuvieApplication(configuration: configuration, logger: logger)
    }
}
