import ArgumentParser
import Foundation
import OperatorCLI
import ProductHosting
import SavryApp
import SavryProjections

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the recipes API on port 3000 (demo mode on a new data directory: the demo cooks' recipes and dev sign-in)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var serve: ServeOptions<SavryProduct>

    func run() async throws {
        let resolved = try serve.resolve(global, defaultPort: 3000, knownVariables: SavryConfiguration.environmentNames)
        var configuration = SavryConfiguration(dataDirectory: global.dataDirectory)
        configuration.demoMode = resolved.demoMode
        configuration.host = resolved.host
        configuration.port = resolved.port
        configuration.metricsRegistry = Bootstrap.metrics(SavryProduct.self)
        try configuration.apply(resolved.settings)
        resolved.logger.info("starting", metadata: [
            "data_dir": "\(global.dataDirectory.path)", "demo": "\(configuration.demoMode)", "address": "\(configuration.host):\(configuration.port)",
        ])
        let app = try await buildSavryApplication(configuration: configuration, logger: resolved.logger)
        try await DataDirectory(global.dataDirectory).whileServing { try await app.runService() }
    }
}
