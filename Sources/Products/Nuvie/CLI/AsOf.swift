import ReadModels
import NuvieAPI
import NuvieApp
import ArgumentParser
import Foundation
import NuvieProjections
import NuvieRecommendations
import OperatorCLI
import ProductHosting

/// `nuvie as-of --position N | --time T [--user ID] [--output DIR]`: the read models as they were.
struct AsOf: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "as-of",
        abstract: "The state as of a log position or an instant: serve it read-only on a port, or print one user's profile, ratings, feed and what we would have recommended to them then."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var when: AsOfOptions

    @Option(help: "Print this user's profile, ratings and the first page of their friends' feed as they were (from the user's own events and their friends' latest, not the whole log).")
    var user: Int64?

    @Flag(help: "With --user, also what we would have recommended then: folds the whole log up to that point and trains a model on it.")
    var recommendations = false

    @OptionGroup var serving: AsOfServeOptions<NuvieProduct>

    @Option(help: "Keep what is built in this directory instead of a temporary one: read.sqlite, or with --serve a whole data directory.")
    var output: String?

    func validate() throws {
        guard serving.serve == nil || user == nil else { throw ValidationError("--serve and --user do not go together") }
        guard !recommendations || user != nil else { throw ValidationError("--recommendations needs --user") }
    }

    func run() async throws {
        if let port = serving.serve {
            let kept = output.map { URL(fileURLWithPath: $0, isDirectory: true) }
            return try await global.serveReadOnly(asOf: when, host: serving.host, port: port, output: kept)
        }
        if let user, !recommendations, output == nil {
            let stores = try global.openLogAndKeys()
            defer { stores.close() }
            let (target, at) = try when.resolve(in: stores.log)
            let started = ContinuousClock.now
            let database = try UserAsOf.readModels(of: user, at: target, in: stores.log, personalData: stores.personalData)
            defer { try? database.close() }
            let snapshot = try UserSnapshot.json(user: user, database: database, position: target, recommendations: nil)
            FileHandle.standardError.write(Data("user \(user) as of position \(target) (\(at)), from their own and their friends' events, in \(Int((ContinuousClock.now - started).seconds * 1000)) ms\n".utf8))
            print(snapshot)
            return
        }
        try await global.readModels(asOf: when, keptIn: output.map { URL(fileURLWithPath: $0, isDirectory: true) }) { database, target, at in
            FileHandle.standardError.write(Data("read models as of position \(target) (\(at))\(output.map { " kept in \($0)/read.sqlite" } ?? "")\n".utf8))
            guard let user else { return }
            let recommended: [UserSnapshot.Recommendation]? = recommendations ? try await UserSnapshot.recommendations(user: user, database: database) : nil
            print(try UserSnapshot.json(user: user, database: database, position: target, recommendations: recommended))
        }
    }
}
