import ArgumentParser
import NewsApp
import NewsProjections
import OperatorCLI

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the news API on port 5001 (demo mode on a new data directory: the synthetic demo articles)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var serve: ServeOptions<NewsProduct>

    func run() async throws {
        try await serve.run(global, NewsConfiguration.self) { configuration, logger in
            try await buildNewsApplication(configuration: configuration, logger: logger)
        }
    }
}
