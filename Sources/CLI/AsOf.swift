import App
import ArgumentParser
import EventLog
import Foundation
import Logging
import Projections
import Recommendations

/// `nuvie as-of --position N | --time T [--user ID] [--output DIR]`: the read models as they were.
struct AsOf: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "as-of",
        abstract: "The state as of a log position or an instant: serve it read-only on a port, or print one user's profile, ratings, feed and what we would have recommended to them then."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "The last log position to include.")
    var position: UInt64?

    @Option(help: "An instant (2024-01-15T10:30:00Z or 2024-01-15): everything recorded at or before it.", transform: Audit.time)
    var time: Date?

    @Option(help: "Print this user's profile, ratings and friends' feed as they were, and the recommendations a model trained on that state gives.")
    var user: Int64?

    @Option(help: "Serve that state read-only on this port (every write answers 405) until stopped.")
    var serve: Int?

    @Option(help: "The address --serve listens on (env NUVIE_HOST).")
    var host: String = ProcessInfo.processInfo.environment["NUVIE_HOST"] ?? "127.0.0.1"

    @Option(help: "Keep what is built in this directory instead of a temporary one: read.sqlite, or with --serve a whole data directory.")
    var output: String?

    func validate() throws {
        guard (position == nil) != (time == nil) else { throw ValidationError("give exactly one of --position and --time") }
        guard serve == nil || user == nil else { throw ValidationError("--serve and --user do not go together") }
    }

    func run() async throws {
        let logger = Bootstrap.logging(level: global.logLevel)
        let log = try EventLog(configuration: .init(directory: DataDirectory(global.dataDirectory).log))
        defer { log.close() }
        let target = try position ?? TimeTravel.position(atOrBefore: time ?? Date(), in: log)
        guard target <= log.headPosition else { throw ValidationError("the log ends at position \(log.headPosition)") }
        if let port = serve { return try await serveReadOnly(log, at: target, port: port, logger: logger) }
        let directory = output.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-as-of-\(UUID().uuidString)")
        defer { if output == nil { try? FileManager.default.removeItem(at: directory) } }
        let database = try TimeTravel.readModels(of: log, upTo: target, at: directory.appendingPathComponent("read.sqlite").path)
        defer { try? database.close() }
        let at = try log.event(at: target).map { $0.recordedAt.formatted(.iso8601) } ?? "before the first event"
        FileHandle.standardError.write(Data("read models as of position \(target) (\(at))\(output.map { " kept in \($0)/read.sqlite" } ?? "")\n".utf8))
        guard let user else { return }
        print(try await UserSnapshot.json(user: user, database: database, position: target))
    }
}

extension AsOf {
    /// Copies the log up to `position` and its read models into a data directory and serves it
    /// with every write refused: the whole API as it answered then.
    private func serveReadOnly(_ log: EventLog, at position: UInt64, port: Int, logger: Logger) async throws {
        let directory = output.map { URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-as-of-\(UUID().uuidString)")
        defer { if output == nil { try? FileManager.default.removeItem(at: directory) } }
        try await TimeTravel.dataDirectory(of: log, upTo: position, at: directory, logger: logger)
        let demo = FileManager.default.fileExists(atPath: DataDirectory(global.dataDirectory).demoMarker.path)
        var configuration = try Serve.configuration(
            dataDirectory: directory, host: host, port: port, demoMode: demo, demoDataset: nil, registry: Bootstrap.metrics()
        )
        configuration.readOnly = true
        logger.info("serving the state as of a log position, read-only", metadata: [
            "position": "\(position)", "address": "\(host):\(port)", "data_dir": "\(directory.path)",
        ])
        try await buildApplication(configuration: configuration, logger: logger).runService()
    }
}

/// One user's profile, ratings and friends' feed from a read database, as JSON.
enum UserSnapshot {
    static func json(user: Int64, database: ReadDatabase, position: UInt64) async throws -> String {
        let profile = try UserQueries(database: database).profile(id: user)
        let ratings = try UserQueries(database: database).ratings(of: user)
        let feed = try ActivityQueries(database: database).friendsActivity(of: user, kind: nil, limit: 20, offset: 0)
        let object: [String: Any] = [
            "position": position,
            "profile": profile.map { p -> [String: Any] in
                [
                    "user_id": p.userId, "name": p.name, "bio": p.bio as Any? ?? NSNull(), "favorite_genres": p.favoriteGenres,
                    "watched_count": p.watchedCount, "friends_count": p.friendsCount, "ratings_count": p.ratingsCount,
                    "favorites_count": p.favoritesCount,
                ]
            } ?? NSNull(),
            "ratings": ratings.map { ["movie_id": $0.movieId, "rating": $0.rating, "rated_at": Date(timeIntervalSince1970: TimeInterval($0.ratedAt)).formatted(.iso8601)] },
            "feed": feed.items.map { ["activity_id": $0.activityId, "user_id": $0.userId, "movie_id": $0.movieId, "type": $0.kind.rawValue] },
            "recommendations": try await recommendations(user: user, database: database),
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]), as: UTF8.self)
    }

    /// What we would have recommended then: a model trained on these read models, the top 10 with
    /// their reasons.
    private static func recommendations(user: Int64, database: ReadDatabase) async throws -> Any {
        let recommender = Recommender(inputs: RecommendationInputQueries(database: database), logger: Logger(label: "nuvie.as-of"))
        try recommender.train()
        guard let list = try? await recommender.recommend(RecommendQuery(requestId: "as-of", userId: user, limit: 10)) else { return NSNull() }
        return list.items.map { item -> [String: Any] in
            [
                "movie_id": item.movieId, "ai_score": item.aiScore, "primary_reason": item.explanation.primaryReason.rawValue,
                "reasons": item.explanation.factors.map(\.description),
            ]
        }
    }
}
