import ArgumentParser
import NuvieCommands
import NuvieMovieLens
import Foundation
import NuvieProjections

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Import data into the event log.", subcommands: [MovieLens.self])

    struct MovieLens: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "movielens",
            abstract: "Import a MovieLens ml-latest directory (movies, links, ratings, tags) as events. Importing the same files twice adds nothing."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The directory holding movies.csv, links.csv, ratings.csv and tags.csv.")
        var directory: String

        @Flag(help: "Any rejected row (not a film, rating or tag, or of a film movies.csv lacks) fails the import, and nothing is written.")
        var strict = false

        func run() async throws {
            let logger = global.logger()
            let dataset = try MovieLensDataset(directory: URL(fileURLWithPath: directory))
            if strict, !dataset.rejected.isEmpty { throw RowsRejected(dataset.rejected) }
            try await global.whileNoServerRuns("import") {
                let stores = try await global.openStores(logger: logger)
                defer { stores.close() }
                let summary = try await MovieLensImporter(store: stores.store).importDataset(dataset) { progress in
                    let seconds = progress.elapsed.seconds
                    let rate = seconds > 0 ? Int(Double(progress.appended) / seconds) : 0
                    FileHandle.standardError.write(Data("\rimported \(progress.appended)/\(progress.total) events (\(rate)/s)".utf8))
                }
                FileHandle.standardError.write(Data("\n".utf8))
                if !summary.rejected.isEmpty {
                    FileHandle.standardError.write(Data("rejected, not imported:\n\(summary.rejected.report)\n".utf8))
                }
                print("""
                    movies: \(summary.movies), users: \(summary.users), ratings: \(summary.ratings), tags: \(summary.tags)
                    new events: \(summary.newEvents), log head: \(summary.headPosition), rows rejected: \(summary.rejected.count)
                    """)
            }
        }
    }
}
