import ArgumentParser
import Foundation
import NewsApp
import NewsProjections
import OperatorCLI
import ProductHosting

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the news API on port 5001 (demo mode on a new data directory: the synthetic demo articles)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var serve: ServeOptions<NewsProduct>

    func run() async throws {
        let resolved = try serve.resolve(global, defaultPort: 5001, knownVariables: NewsConfiguration.environmentNames)
        var configuration = NewsConfiguration(dataDirectory: global.dataDirectory)
        configuration.demoMode = resolved.demoMode
        configuration.host = resolved.host
        configuration.port = resolved.port
        configuration.metricsRegistry = Bootstrap.metrics(NewsProduct.self)
        try configuration.apply(resolved.settings)
        resolved.logger.info("starting", metadata: [
            "data_dir": "\(global.dataDirectory.path)", "demo": "\(configuration.demoMode)", "address": "\(configuration.host):\(configuration.port)",
        ])
        let app = try await buildNewsApplication(configuration: configuration, logger: resolved.logger)
        try await DataDirectory(global.dataDirectory).whileServing { try await app.runService() }
    }
}
