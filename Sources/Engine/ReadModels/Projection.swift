import EventSourcing
import GRDB

/// What the read database knows of a read model: a name, a version and the tables it owns.
public protocol ReadModelSchema: Sendable {
    var name: String { get }
    /// Bumping the version drops the projection's tables and refolds the whole log into them.
    var version: Int { get }
    var tables: [String] { get }
    /// Indexes that serve reads and that no fold leans on often (an erasure's one delete may use
    /// one): a fold into empty tables drops them and builds each once at the end
    /// (`BulkLoading.deferringIndexes`). Naming one a fold searches by on every event keeps the
    /// answers right and makes that fold scan its table.
    var indexesForReads: [String] { get }
    func createSchema(_ db: Database) throws
}

/// A read model: its schema and a pure fold of a product's events into its tables.
///
/// `apply` runs inside the runner's write transaction, together with the projection's checkpoint,
/// so an event is applied exactly once. It must not read the clock, randomness or the network:
/// the event carries everything it needs, and it reads and writes only the projection's own tables.
public protocol Projection<Event>: ReadModelSchema {
    associatedtype Event: Sendable & Equatable
    func apply(_ event: Recorded<Event>, _ db: Database) throws
    /// Folds consecutive events, in log order, to the same tables `apply` would leave one event at a
    /// time. The default does exactly that; a projection whose fold is a sum overrides it to add up
    /// a run of events in memory and write each row once. Errors are `FoldFailure`s.
    func apply(_ events: ArraySlice<Recorded<Event>>, _ db: Database) throws
}

extension ReadModelSchema {
    public var indexesForReads: [String] { [] }
    var migrationIdentifier: String { "\(name).v\(version)" }
}

extension Projection {
    public func apply(_ events: ArraySlice<Recorded<Event>>, _ db: Database) throws {
        for event in events { try FoldFailure.at(event.position) { try apply(event, db) } }
    }

    /// Applies `events` in order, gathering the items of each run of consecutive events that
    /// `gather` keeps in a run and handing them to `flush` in one call; an event that stands
    /// `alone` ends the run and goes through `apply` by itself.
    public func apply<Item>(
        _ events: ArraySlice<Recorded<Event>>, _ db: Database,
        gathering gather: (Recorded<Event>) -> Gathered<Item>, flush: ([Item], Database) throws -> Void
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
public enum Gathered<Item> {
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

    public static func at(_ position: UInt64, _ body: () throws -> Void) throws {
        do { try body() } catch let failure as FoldFailure { throw failure } catch { throw FoldFailure(position: position, error: error) }
    }
}

extension Database {
    /// Executes `sql` through the connection's statement cache: folds run the same few statements
    /// for every event.
    public func run(_ sql: String, _ arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
