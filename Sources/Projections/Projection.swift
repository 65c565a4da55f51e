import Domain
import GRDB

/// A read model: a name, a version, the tables it owns and a pure fold of events into them.
///
/// `apply` runs inside the runner's write transaction, together with the projection's checkpoint,
/// so an event is applied exactly once. It must not read the clock, randomness or the network:
/// the event carries everything it needs.
public protocol Projection: Sendable {
    var name: String { get }
    /// Bumping the version drops the projection's tables and refolds the whole log into them.
    var version: Int { get }
    var tables: [String] { get }
    func createSchema(_ db: Database) throws
    func apply(_ event: Recorded<DomainEvent>, _ db: Database) throws
}

extension Projection {
    var migrationIdentifier: String { "\(name).v\(version)" }
}

/// Every read model the backend serves, in the order they are applied to each event.
public enum Projections {
    public static let all: [any Projection] = [
        CatalogProjection(),
        MovieStatsProjection(),
        UserRatingsProjection(),
        ReviewsProjection(),
        UsersProjection(),
        WatchProjection(),
        SocialProjection(),
        ActivityProjection(),
        TasteProjection(),
    ]
}

extension Recorded {
    /// Epoch seconds: the API serves whole-second UTC timestamps.
    var epochSeconds: Int64 { Int64(recordedAt.timeIntervalSince1970.rounded(.down)) }
}

extension Database {
    /// Executes `sql` through the connection's statement cache: folds run the same few statements
    /// for every event.
    func run(_ sql: String, _ arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
