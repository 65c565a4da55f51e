import ArgumentParser
import Foundation
import NewsDomain
import NewsProjections
import OperatorCLI

/// `news as-of --position N | --time T --user ID`: an investor's preferences as they were then.
struct AsOf: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "as-of",
        abstract: "An investor's preferences (focus profile and holdings, what their feed ranks by) as of a log position or an instant."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var when: AsOfOptions

    @Option(help: "The investor's X-User-ID.")
    var user: String

    func run() async throws {
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
