import NIOConcurrencyHelpers

/// The runner's `revision`, for request paths that remember answers while the read models hold
/// still; it takes no lock and reads no file.
public struct ReadModelRevision: Sendable {
    private let read: @Sendable () -> UInt64

    public init<Catalog>(runner: ProjectionRunner<Catalog>) {
        read = { runner.revision }
    }

    public var current: UInt64 { read() }
}

/// Values read from the read models, kept by id while the read models hold still: a read at the
/// revision a value was made at gets it without touching the database.
public final class RememberedReads<Id: Hashable & Sendable, Value: Sendable>: Sendable {
    private let memo: NIOLockedValueBox<Memo<Id, Value>>
    private let revision: ReadModelRevision

    public init(revision: ReadModelRevision, capacity: Int) {
        self.revision = revision
        memo = NIOLockedValueBox(Memo(capacity: capacity))
    }

    /// The value `read` gives for `id` now; nil values are not remembered.
    public func value(_ id: Id, read: () throws -> Value?) rethrows -> Value? {
        // Taken before reading, so what is kept under it is at least as new as it says.
        let key = String(revision.current)
        if let known = memo.withLockedValue({ $0.get(id, key: key) }) { return known }
        guard let value = try read() else { return nil }
        memo.withLockedValue { $0.put(id, key: key, value) }
        return value
    }
}
