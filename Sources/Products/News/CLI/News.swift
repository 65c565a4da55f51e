import ArgumentParser
import NewsProjections
import OperatorCLI

@main
struct News: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The news aggregator on the event-sourced engine: articles and preferences in an LMDB log, story groups and signals from SQLite read models.",
        subcommands: [
            Serve.self, AsOf.self, ImportNews.self, EvalClusters.self, Synthesize.self,
        ] + OperatorCommands<NewsProduct>.withoutAccounts,
        defaultSubcommand: Serve.self
    )
}

typealias GlobalOptions = ProductOptions<NewsProduct>
