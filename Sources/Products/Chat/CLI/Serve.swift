import ArgumentParser
import ChatApp
import ChatProjections
import OperatorCLI

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the chat API on port 8000 (demo mode on a new data directory: the demo accounts)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var serve: ServeOptions<ChatProduct>

    func run() async throws {
        try await serve.run(global, ChatConfiguration.self) { configuration, logger in
            try await buildChatApplication(configuration: configuration, logger: logger)
        }
    }
}
