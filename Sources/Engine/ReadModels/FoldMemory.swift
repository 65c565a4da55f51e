import GRDB
import GRDBSQLite
import Synchronization

/// What a projection keeps in memory from one batch to the next, so a batch of one event need not
/// read again what the batch before it read.
///
/// It is handed back only to a batch that starts where the kept one ended, on the same connection to
/// the same file: the projection's tables there are then exactly those it was kept beside, since only
/// the projection writes them. It is kept only once that batch's transaction commits, and taking it
/// forgets it, so a batch rolled back leaves nothing behind. A rebuild, a replay or a past state folds
/// into another file and starts afresh.
public final class FoldMemory<State: Sendable>: Sendable {
    private struct Key: Equatable {
        var file: String
        var connection: UInt
        var position: Int64
    }

    private let kept = Mutex<(key: Key, state: State)?>(nil)

    public init() {}

    /// What the last committed batch kept, when `projection` has applied nothing on this connection since.
    public func recall(for projection: String, _ db: Database) throws -> State? {
        let checkpoint = try Int64.fetchOne(db, sql: "SELECT position FROM projectionCheckpoint WHERE name = ?", arguments: [projection])
        let key = checkpoint.map { Self.key(db, position: $0) }
        return kept.withLock { kept in
            defer { kept = nil }
            guard let kept, kept.key == key else { return nil }
            return kept.state
        }
    }

    /// Keeps `state` for the batch after this one, if this transaction commits: `position` is where
    /// the projection's checkpoint then stands.
    public func keep(_ state: State, through position: UInt64, _ db: Database) {
        let key = Self.key(db, position: Int64(position))
        db.afterNextTransaction { _ in self.kept.withLock { $0 = (key, state) } }
    }

    private static func key(_ db: Database, position: Int64) -> Key {
        let connection = db.sqliteConnection
        let file = connection.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) } ?? ""
        return Key(file: file, connection: UInt(bitPattern: connection), position: position)
    }
}
