import EventSourcing
import NIOConcurrencyHelpers
import Synchronization

/// The read models' revision (it counts what has changed them) and, for each scope, the revision a
/// fold last touched it at. Scopes are kept in buckets by hash, so two scopes that share a bucket
/// only make each other's remembered answers stale sooner, never later.
final class ScopeRevisions: Sendable {
    private static let bucketCount = 4_096
    private let revision = Atomic<UInt64>(0)
    private let touched: NIOLockedValueBox<(everything: UInt64, buckets: [UInt64])>

    init() {
        touched = NIOLockedValueBox((0, [UInt64](repeating: 0, count: Self.bucketCount)))
    }

    /// Read without a lock: request paths read it for every remembered answer.
    var current: UInt64 { revision.load(ordering: .acquiring) }

    /// Moves the revision on, after a change is visible, recording what it touched first: a reader
    /// that sees the new revision sees its scopes touched.
    func advance(touching scopes: ReadScopes) {
        touched.withLockedValue { touched in
            let next = revision.load(ordering: .relaxed) + 1
            switch scopes {
            case .everything: touched.everything = next
            case .only(let scopes): for scope in scopes { touched.buckets[Self.bucket(scope)] = next }
            }
            revision.store(next, ordering: .releasing)
        }
    }

    /// The latest revision at which a change may have touched any of `scopes`.
    func lastTouched(_ scopes: ReadScopeSet) -> UInt64 {
        touched.withLockedValue { touched in
            scopes.buckets.reduce(touched.everything) { max($0, touched.buckets[$1]) }
        }
    }

    fileprivate static func bucket(_ scope: ReadScope) -> Int {
        Int(UInt(bitPattern: scope.hashValue) % UInt(bucketCount))
    }
}

/// Scopes as the revisions keep them, worked out once for an answer checked on every request.
public struct ReadScopeSet: Sendable {
    fileprivate let buckets: [Int]

    public init(_ scopes: some Sequence<ReadScope>) {
        buckets = Array(Set(scopes.map(ScopeRevisions.bucket)))
    }
}

extension ReadScopes {
    /// A batch of events past this many is taken to touch everything: naming each event's scopes
    /// would cost a bulk fold more than the answers it keeps are worth.
    static let namedUpTo = 256

    /// What folding `events` touches.
    static func of<Catalog: EventCatalog>(_ events: [Recorded<Catalog.Event>], in catalog: Catalog.Type) -> ReadScopes {
        guard events.count <= namedUpTo else { return .everything }
        var scopes: [ReadScope] = []
        for recorded in events {
            switch Catalog.readScopes(of: recorded.event) {
            case .everything: return .everything
            case .only(let touched): scopes += touched
            }
        }
        return .only(scopes)
    }
}
