import ArgumentParser
import Foundation
import NewsApp
import NewsDomain
import NewsProjections
import OperatorCLI

/// `news as-of --position N | --time T [--user ID | --serve PORT]`: the state as it was.
struct AsOf: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "as-of",
        abstract: "The state as of a log position or an instant: an investor's preferences (focus profile and holdings, what their feed ranks by), or the whole API served read-only on a port."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var when: AsOfOptions

    @Option(help: "Print the preferences of the investor with this X-User-ID as they were.")
    var user: String?

    @OptionGroup var serving: AsOfServeOptions<NewsProduct>

    func validate() throws {
        guard (user == nil) != (serving.serve == nil) else { throw ValidationError("give exactly one of --user and --serve") }
    }

    func run() async throws {
        if let port = serving.serve {
            return try await global.serveReadOnly(asOf: when, host: serving.host, port: port)
        }
        guard let user else { throw ValidationError("give exactly one of --user and --serve") }
        let preferences = try await global.readModels(asOf: when) { database, position, at in
            FileHandle.standardError.write(Data("\(user)'s preferences as of position \(position) (\(at))\n".utf8))
            return try NewsQueries(database: database).preferences(of: user)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(Document(focus_profile: preferences.focusProfile.rawValue, holdings: preferences.holdings)), as: UTF8.self))
    }

    private struct Document: Encodable {
        var focus_profile: String
        var holdings: [Holding]
    }
}
