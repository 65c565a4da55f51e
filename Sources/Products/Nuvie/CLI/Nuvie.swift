import ArgumentParser
import NuvieProjections
import OperatorCLI

@main
struct Nuvie: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Nuvie's event-sourced backend: an LMDB event log, SQLite read models, the iOS contract over HTTP.",
        subcommands: [
            Serve.self, Import.self, AsOf.self, Eval.self,
        ] + OperatorCommands<NuvieProduct>.all,
        defaultSubcommand: Serve.self
    )

    static func main() async {
        await mainOnEventLoops()
    }
}
