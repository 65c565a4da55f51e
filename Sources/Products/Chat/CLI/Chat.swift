import ArgumentParser
import ChatApp
import ChatProjections
import Hummingbird
import Logging
import OperatorCLI

@main
struct Chat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The chat backend on the event-sourced engine: an LMDB event log, SQLite read models, the iOS contract over HTTP.",
        subcommands: [
            ServeCommand<ChatProduct>.self, ImportDjangoUsers.self, AsOfCommand<ChatProduct, SessionsAsOf>.self,
        ] + OperatorCommands<ChatProduct>.all,
        defaultSubcommand: ServeCommand<ChatProduct>.self
    )
}

typealias GlobalOptions = ProductOptions<ChatProduct>

extension ChatProduct: ServedProduct {
    public static let serveAbstract = "Serve the chat API on port 8000 (demo mode on a new data directory: the demo accounts)."

    public static func application(_ configuration: ChatConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
        try await buildChatApplication(configuration: configuration, logger: logger)
    }
}
