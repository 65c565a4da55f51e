import ArgumentParser
import Foundation
import NewsDomain
import NewsProjections
import OperatorCLI
import ReadModels

/// `news as-of … --user ID`: an investor's preferences then (focus profile and holdings, what their
/// feed ranks by).
struct PreferencesAsOf: PastStateView {
    static let abstract = "The state as of a log position or an instant: an investor's preferences (focus profile and holdings, what their feed ranks by), or the whole API served read-only on a port."
    static let option = "--user"

    @Option(help: "Print the preferences of the investor with this X-User-ID as they were.")
    var user: String?

    var isGiven: Bool { user != nil }
    var subject: String { "\(user ?? "")'s preferences" }

    func document(from database: ReadDatabase, at position: UInt64) throws -> String {
        let preferences = try NewsQueries(database: database).preferences(of: user ?? "")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Document(focus_profile: preferences.focusProfile.rawValue, holdings: preferences.holdings)), as: UTF8.self)
    }

    private struct Document: Encodable {
        var focus_profile: String
        var holdings: [Holding]
    }
}
