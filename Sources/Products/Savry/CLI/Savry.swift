import ArgumentParser
import OperatorCLI
import SavryProjections

@main
struct Savry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Savry's private recipes on the event-sourced engine: an LMDB event log, SQLite read models, the iOS contract over HTTP.",
        subcommands: [
            Serve.self, AsOf.self,
        ] + OperatorCommands<SavryProduct>.all,
        defaultSubcommand: Serve.self
    )
}

typealias GlobalOptions = ProductOptions<SavryProduct>
