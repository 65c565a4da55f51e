import ArgumentParser
import ChatAPI
import ChatApp
import ChatProjections
import Foundation
import OperatorCLI

/// `chat as-of --position N | --time T [--user ID | --serve PORT]`: the state as it was.
struct AsOf: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "as-of",
        abstract: "The state as of a log position or an instant: a user's sessions as GET /api/chat/sessions/ listed them (the newest 200), or the whole API served read-only on a port."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var when: AsOfOptions

    @Option(help: "Print this user's sessions as they were.")
    var user: Int64?

    @OptionGroup var serving: AsOfServeOptions<ChatProduct>

    func validate() throws {
        guard (user == nil) != (serving.serve == nil) else { throw ValidationError("give exactly one of --user and --serve") }
    }

    func run() async throws {
        if let port = serving.serve {
            return try await global.serveReadOnly(asOf: when, host: serving.host, port: port)
        }
        guard let user else { throw ValidationError("give exactly one of --user and --serve") }
        let sessions = try await global.readModels(asOf: when) { database, position, at in
            FileHandle.standardError.write(Data("user \(user)'s sessions as of position \(position) (\(at))\n".utf8))
            return try ChatQueries(database: database).sessions(of: user, limit: 200)
        }
        print(String(decoding: try ChatDocuments.sessions(sessions), as: UTF8.self))
    }
}
