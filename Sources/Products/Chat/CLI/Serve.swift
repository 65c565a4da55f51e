import ArgumentParser
import ChatApp
import ChatProjections
import Foundation
import OperatorCLI
import ProductHosting

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the chat API on port 8000 (demo mode on a new data directory: the demo accounts)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var serve: ServeOptions<ChatProduct>

    func run() async throws {
        let resolved = try serve.resolve(global, defaultPort: 8000, knownVariables: ChatConfiguration.environmentNames)
        var configuration = ChatConfiguration(dataDirectory: global.dataDirectory)
        configuration.demoMode = resolved.demoMode
        configuration.host = resolved.host
        configuration.port = resolved.port
        configuration.metricsRegistry = Bootstrap.metrics(ChatProduct.self)
        try configuration.apply(resolved.settings)
        resolved.logger.info("starting", metadata: [
            "data_dir": "\(global.dataDirectory.path)", "demo": "\(configuration.demoMode)", "address": "\(configuration.host):\(configuration.port)",
        ])
        let app = try await buildChatApplication(configuration: configuration, logger: resolved.logger)
        try await DataDirectory(global.dataDirectory).whileServing { try await app.runService() }
    }
}
