import ArgumentParser
import ChatAPI
import ChatProjections
import OperatorCLI
import ReadModels

/// `chat as-of … --user ID`: a user's sessions as GET /api/chat/sessions/ listed them (the newest 200).
struct SessionsAsOf: PastStateView {
    static let abstract = "The state as of a log position or an instant: a user's sessions as GET /api/chat/sessions/ listed them (the newest 200), or the whole API served read-only on a port."
    static let option = "--user"

    @Option(help: "Print this user's sessions as they were.")
    var user: Int64?

    var isGiven: Bool { user != nil }
    var subject: String { "user \(user ?? 0)'s sessions" }

    func document(from database: ReadDatabase, at position: UInt64) throws -> String {
        String(decoding: try ChatDocuments.sessions(try ChatQueries(database: database).sessions(of: user ?? 0, limit: 200)), as: UTF8.self)
    }
}
