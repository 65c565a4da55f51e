import ArgumentParser
import ChatAPI
import ChatProjections
import Foundation
import OperatorCLI
import ProductHosting

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

    /// Personal fields are opened with the live key store: a user erased since reads as erased in
    /// every past state too.
    func run() async throws {
        let logger = global.logger()
        let live = try global.openLogAndKeys()
        defer { live.close() }
        let (target, at) = try when.resolve(in: live.log)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chat-as-of-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let database = try TimeTravel.readModels(
            ChatProduct.self, of: live.log, personalData: live.personalData, upTo: target,
            at: scratch.appendingPathComponent("read.sqlite").path, logger: logger
        )
        defer { try? database.close() }
        let sessions = try ChatQueries(database: database).sessions(of: user, limit: 200)
        FileHandle.standardError.write(Data("user \(user)'s sessions as of position \(target) (\(at))\n".utf8))
        print(String(decoding: try ChatDocuments.sessions(sessions), as: UTF8.self))
    }
}
