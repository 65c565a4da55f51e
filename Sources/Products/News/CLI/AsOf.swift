import ArgumentParser
import Foundation
import NewsDomain
import NewsProjections
import OperatorCLI
import ProductHosting

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
        let logger = global.logger()
        let live = try global.openLogAndKeys()
        defer { live.close() }
        let (target, at) = try when.resolve(in: live.log)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("news-as-of-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let database = try TimeTravel.readModels(
            NewsProduct.self, of: live.log, personalData: live.personalData, upTo: target,
            at: scratch.appendingPathComponent("read.sqlite").path, logger: logger
        )
        defer { try? database.close() }
        let preferences = try NewsQueries(database: database).preferences(of: user)
        FileHandle.standardError.write(Data("\(user)'s preferences as of position \(target) (\(at))\n".utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(Document(focus_profile: preferences.focusProfile.rawValue, holdings: preferences.holdings)), as: UTF8.self))
    }

    private struct Document: Encodable {
        var focus_profile: String
        var holdings: [Holding]
    }
}
