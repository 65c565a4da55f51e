import EventSourcing
import NIOConcurrencyHelpers

/// The runner's `revision` and what each fold touched, for request paths that remember answers
/// while the read models they come from hold still; it reads no file.
public struct ReadModelRevision: Sendable {
    private let read: @Sendable () -> UInt64
    private let touched: @Sendable (ReadScopeSet) -> UInt64

    public init<Catalog>(runner: ProjectionRunner<Catalog>) {
        read = { runner.revision }
        touched = { runner.lastTouched($0) }
    }

    public var current: UInt64 { read() }

    /// The latest revision at which a fold may have touched any of `scopes`.
    public func lastTouched(_ scopes: ReadScopeSet) -> UInt64 { touched(scopes) }
}

/// Values read from the read models, kept by id while what they were read from holds still: a
/// value read at a revision is served again until a fold touches one of the scopes it was read from
/// (any fold, for a value given none) without touching the database.
public final class RememberedReads<Id: Hashable & Sendable, Value: Sendable>: Sendable {
    private let memo: NIOLockedValueBox<LRUCache<Id, (revision: UInt64, value: Value, scopes: ReadScopeSet?)>>
    private let revision: ReadModelRevision

    public init(revision: ReadModelRevision, capacity: Int) {
        self.revision = revision
        memo = NIOLockedValueBox(LRUCache(capacity: capacity))
    }

    /// The value `read` gives for `id` now, which reads only what `scope` names (everything when
    /// nil); nil values are not remembered.
    public func value(_ id: Id, scope: ReadScope? = nil, read: () throws -> Value?) rethrows -> Value? {
        // Taken before reading, so what is kept under it is at least as new as it says.
        let now = revision.current
        if let known = known(id, now: now) { return known }
        guard let value = try read() else { return nil }
        memo.withLockedValue { $0.set((now, value, scope.map { ReadScopeSet(CollectionOfOne($0)) }), for: id) }
        return value
    }

    /// The value `read` gives for `id` now, with the scopes it was read from, which only reading
    /// finds out (a user's friends, say).
    public func value(_ id: Id, readingScopes read: () throws -> (Value, ReadScopeSet)) rethrows -> Value {
        let now = revision.current
        if let known = known(id, now: now) { return known }
        let (value, scopes) = try read()
        memo.withLockedValue { $0.set((now, value, scopes), for: id) }
        return value
    }

    private func known(_ id: Id, now: UInt64) -> Value? {
        guard let known = memo.withLockedValue({ $0.value(for: id) }) else { return nil }
        let stale = known.scopes.map(revision.lastTouched) ?? now
        return known.revision >= stale ? known.value : nil
    }
}
