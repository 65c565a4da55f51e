import ArgumentParser
import Hummingbird
import Logging
import NewsApp
import NewsProjections
import OperatorCLI

@main
struct News: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The news aggregator on the event-sourced engine: articles, readers and their preferences in an LMDB log, story groups and signals from SQLite read models.",
        subcommands: [
            ServeCommand<NewsProduct>.self, AsOfCommand<NewsProduct, PreferencesAsOf>.self, ImportNews.self, EvalClusters.self, Synthesize.self,
            ReaderCommand.self,
        ] + OperatorCommands<NewsProduct>.all,
        defaultSubcommand: ServeCommand<NewsProduct>.self
    )
}

typealias GlobalOptions = ProductOptions<NewsProduct>

extension NewsProduct: ServedProduct {
    public static let serveAbstract = "Serve the news API on port 5001 (demo mode on a new data directory: the synthetic demo articles)."

    public static func application(_ configuration: NewsConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
        try await buildNewsApplication(configuration: configuration, logger: logger)
    }
}
