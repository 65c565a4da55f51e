import ArgumentParser
import ChatAPI
import ChatProjections
import Foundation
import OperatorCLI

/// `chat as-of --position N | --time T --user ID`: a user's sessions as they were then.
struct AsOf: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "as-of",
        abstract: "A user's sessions as GET /api/chat/sessions/ listed them as of a log position or an instant (the newest 200)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var when: AsOfOptions

    @Option(help: "The user id.")
    var user: Int64

    func run() async throws {
        let sessions = try await global.readModels(asOf: when) { database, position, at in
            FileHandle.standardError.write(Data("user \(user)'s sessions as of position \(position) (\(at))\n".utf8))
            return try ChatQueries(database: database).sessions(of: user, limit: 200)
        }
        print(String(decoding: try ChatDocuments.sessions(sessions), as: UTF8.self))
    }
}
