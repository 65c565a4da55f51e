import Foundation
import GRDB
import NIOConcurrencyHelpers

/// Read-only connections to one read-model file, for single-statement reads on request paths.
///
/// `DatabasePool` runs `PRAGMA schema_version` and takes its reader pool's locks on every read: on
/// `GET /movies/{id}` that cost about as much as the two statements the request needs (profiled,
/// BENCHMARKS.md). These connections skip both. Skipping the schema check is safe because a served
/// file's schema never changes: projections migrate before serving starts, and a rebuild migrates a
/// new file that gets connections of its own when it is adopted (SQLite itself re-prepares a cached
/// statement whose schema changed).
final class ReadConnections: Sendable {
    private struct State {
        var idle: [DatabaseQueue] = []
        var isClosed = false
    }

    private let path: String
    private let state = NIOLockedValueBox(State())
    /// Connections kept for reuse; callers beyond this (rare: reads are synchronous, so about one
    /// per thread of the cooperative pool) open one and close it after.
    private static let kept = 16

    init(path: String) {
        self.path = path
    }

    /// These connections' file is no longer served: read the current generation instead.
    struct Retired: Error {}

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let reused = try state.withLockedValue { state throws -> DatabaseQueue? in
            guard !state.isClosed else { throw Retired() }
            return state.idle.popLast()
        }
        let connection = try reused ?? openUnlessRetired()
        // A connection that is not kept closes when released.
        defer { state.withLockedValue { if !$0.isClosed, $0.idle.count < Self.kept { $0.idle.append(connection) } } }
        return try connection.inDatabase(body)
    }

    /// Closes the idle connections; reads from now on fail, and those under way close theirs after.
    func close() throws {
        let idle = state.withLockedValue { state in
            state.isClosed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle { try connection.close() }
    }

    /// A new connection; `Retired` when the file was retired (and deleted) since `read` checked.
    private func openUnlessRetired() throws -> DatabaseQueue {
        do {
            return try open()
        } catch {
            if state.withLockedValue({ $0.isClosed }) { throw Retired() }
            throw error
        }
    }

    private func open() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
