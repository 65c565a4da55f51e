import ArgumentParser
import NuvieCommands
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

        func run() async throws {
            let stores = try await global.openStores(logger: Bootstrap.logging(level: global.logLevel))
            defer { stores.close() }
            let summary = try await MovieLensImporter(store: stores.store).importDirectory(URL(fileURLWithPath: directory)) { progress in
                let seconds = progress.elapsed.seconds
                let rate = seconds > 0 ? Int(Double(progress.appended) / seconds) : 0
                FileHandle.standardError.write(Data("\rimported \(progress.appended)/\(progress.total) events (\(rate)/s)".utf8))
            }
            FileHandle.standardError.write(Data("\n".utf8))
            print("""
                movies: \(summary.movies), users: \(summary.users), ratings: \(summary.ratings), tags: \(summary.tags)
                new events: \(summary.newEvents), log head: \(summary.headPosition)
                """)
        }
    }
}
