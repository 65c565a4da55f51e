import EventSourcing
import Domain
import GRDB

/// A read model: a name, a version, the tables it owns and a pure fold of events into them.
///
/// `apply` runs inside the runner's write transaction, together with the projection's checkpoint,
/// so an event is applied exactly once. It must not read the clock, randomness or the network:
/// the event carries everything it needs, and it reads and writes only the projection's own tables.
public protocol Projection: Sendable {
    var name: String { get }
    /// Bumping the version drops the projection's tables and refolds the whole log into them.
    var version: Int { get }
    var tables: [String] { get }
    func createSchema(_ db: Database) throws
    func apply(_ event: Recorded<DomainEvent>, _ db: Database) throws
    /// Folds consecutive events, in log order, to the same tables `apply` would leave one event at a
    /// time. The default does exactly that; a projection whose fold is a sum overrides it to add up
    /// a run of events in memory and write each row once. Errors are `FoldFailure`s.
    func apply(_ events: ArraySlice<Recorded<DomainEvent>>, _ db: Database) throws
}

extension Projection {
    var migrationIdentifier: String { "\(name).v\(version)" }

    public func apply(_ events: ArraySlice<Recorded<DomainEvent>>, _ db: Database) throws {
        for event in events { try FoldFailure.at(event.position) { try apply(event, db) } }
    }

    /// Applies `events` in order, gathering the items of each run of consecutive events that
    /// `gather` keeps in a run and handing them to `flush` in one call; an event that stands
    /// `alone` ends the run and goes through `apply` by itself.
    func apply<Item>(
        _ events: ArraySlice<Recorded<DomainEvent>>, _ db: Database,
        gathering gather: (Recorded<DomainEvent>) -> Gathered<Item>, flush: ([Item], Database) throws -> Void
    ) throws {
        var run: [Item] = []
        var runEnd: UInt64 = 0
        func flushRun() throws {
            guard !run.isEmpty else { return }
            try FoldFailure.at(runEnd) { try flush(run, db) }
            run.removeAll(keepingCapacity: true)
        }
        for event in events {
            switch gather(event) {
            case .item(let item):
                run.append(item)
                runEnd = event.position
            case .nothing:
                runEnd = event.position
            case .alone:
                try flushRun()
                try FoldFailure.at(event.position) { try apply(event, db) }
            }
        }
        try flushRun()
    }
}

/// How a batch fold treats one event of a run.
enum Gathered<Item> {
    /// In the run, adding this item.
    case item(Item)
    /// In the run, adding nothing.
    case nothing
    /// Ends the run and is applied by itself.
    case alone
}

/// A projection could not fold the event at `position` (for a gathered run of events, the run's last).
public struct FoldFailure: Error {
    public var position: UInt64
    public var error: any Error

    static func at(_ position: UInt64, _ body: () throws -> Void) throws {
        do { try body() } catch let failure as FoldFailure { throw failure } catch { throw FoldFailure(position: position, error: error) }
    }
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
