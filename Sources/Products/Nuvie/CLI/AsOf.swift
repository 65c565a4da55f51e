import ArgumentParser
import NuvieApp
import NuvieProjections
import OperatorCLI
import ReadModels

/// `nuvie as-of … --user ID [--recommendations]`: a user's profile, ratings and friends' feed as they
/// were, and what we would have recommended to them then.
struct UserAsOfView: PastStateView {
    static let abstract = "The state as of a log position or an instant: serve it read-only on a port, or print one user's profile, ratings, feed and what we would have recommended to them then."
    static let option = "--user"

    @Option(help: "Print this user's profile, ratings and the first page of their friends' feed as they were (from the user's own events and their friends' latest, not the whole log).")
    var user: Int64?

    @Flag(help: "With --user, also what we would have recommended then: folds the whole log up to that point and trains a model on it.")
    var recommendations = false

    func validate() throws {
        guard !recommendations || user != nil else { throw ValidationError("--recommendations needs --user") }
    }

    var isGiven: Bool { user != nil }
    var subject: String { "user \(user ?? 0)" }

    func document(from database: ReadDatabase, at position: UInt64) async throws -> String {
        let recommended = recommendations ? try await UserSnapshot.recommendations(user: user ?? 0, database: database) : nil
        return try UserSnapshot.json(user: user ?? 0, database: database, position: position, recommendations: recommended)
    }

    func documentFromOwnEvents(of live: LiveLogAndKeys, at position: UInt64) throws -> String? {
        guard let user, !recommendations else { return nil }
        let database = try UserAsOf.readModels(of: user, at: position, in: live.log, personalData: live.personalData)
        defer { try? database.close() }
        return try UserSnapshot.json(user: user, database: database, position: position, recommendations: nil)
    }
}
