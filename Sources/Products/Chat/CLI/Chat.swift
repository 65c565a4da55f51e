import ArgumentParser
import ChatProjections
import OperatorCLI

@main
struct Chat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The chat backend on the event-sourced engine: an LMDB event log, SQLite read models, the iOS contract over HTTP.",
        subcommands: [
            Serve.self, ImportDjangoUsers.self, AsOf.self,
        ] + OperatorCommands<ChatProduct>.all,
        defaultSubcommand: Serve.self
    )
}

typealias GlobalOptions = ProductOptions<ChatProduct>
