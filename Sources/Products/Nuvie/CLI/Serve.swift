import ArgumentParser
import Foundation
import NuvieApp
import NuvieProjections
import OperatorCLI

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the HTTP API on port 8080 (demo mode on a new data directory: the bundled MovieLens data and dev sign-in)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var serve: ServeOptions<NuvieProduct>

    @Option(help: "The MovieLens directory demo mode imports (default: demo/ml-latest-small here, else beside the sources this binary was built from).")
    var demoDataset: String?

    func run() async throws {
        try await serve.run(global, NuvieConfiguration.self) { configuration, logger in
            var configuration = configuration
            if configuration.demoMode { configuration.demoDataset = try DemoDataset.locate(demoDataset) }
            return try await buildNuvieApplication(configuration: configuration, logger: logger)
        }
    }
}
