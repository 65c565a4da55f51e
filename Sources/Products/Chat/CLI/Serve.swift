import ArgumentParser
import ChatApp
import ChatProjections
import Foundation
import HTTPServing
import ProductHosting

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the chat API (demo mode on a new data directory).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Address to listen on (env CHAT_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (env CHAT_PORT; default 8000).")
    var port: Int?

    @Flag(inversion: .prefixedNo, help: "Demo mode: seed the demo accounts (env CHAT_DEMO). Default: on for a new data directory, and for one created in demo mode.")
    var demo: Bool?

    func validate() throws {
        if let port { guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") } }
    }

    func run() async throws {
        let logger = Bootstrap.logging(ChatProduct.self, level: global.logLevel)
        let settings = EnvironmentSettings()
        for name in settings.unknownNames(prefix: "CHAT", known: ChatConfiguration.environmentNames) {
            logger.warning("ignoring an environment variable no setting reads (misspelt?)", metadata: ["variable": "\(name)"])
        }
        var configuration = ChatConfiguration(dataDirectory: global.dataDirectory)
        configuration.demoMode = try DataDirectory(global.dataDirectory).resolveDemoMode(flag: demo, environment: try settings.flag("CHAT_DEMO"))
        configuration.host = host ?? settings.text("CHAT_HOST") ?? "127.0.0.1"
        configuration.port = try port ?? settings.integer("CHAT_PORT", in: 0...65535) ?? 8000
        configuration.metricsRegistry = Bootstrap.metrics(ChatProduct.self)
        try configuration.apply(settings)
        logger.info("starting", metadata: [
            "data_dir": "\(global.dataDirectory.path)", "demo": "\(configuration.demoMode)", "address": "\(configuration.host):\(configuration.port)",
        ])
        let app = try await buildChatApplication(configuration: configuration, logger: logger)
        try await DataDirectory(global.dataDirectory).whileServing { try await app.runService() }
    }
}
