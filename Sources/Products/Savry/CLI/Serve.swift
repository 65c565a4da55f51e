import ArgumentParser
import OperatorCLI
import SavryApp
import SavryProjections

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the recipes API on port 3000 (demo mode on a new data directory: the demo cooks' recipes and dev sign-in)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var serve: ServeOptions<SavryProduct>

    func run() async throws {
        try await serve.run(global, SavryConfiguration.self) { configuration, logger in
            try await buildSavryApplication(configuration: configuration, logger: logger)
        }
    }
}
