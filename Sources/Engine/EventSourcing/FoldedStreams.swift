import Metrics
import NIOConcurrencyHelpers

/// Streams' states as decisions last folded them, with the stream version each was folded through.
/// A recorded event never changes, so a kept state folded with the events after its version is the
/// stream's state now. States are small and a stream's length does not matter: a user who re-rated a
/// film ten thousand times folds one event per rating, not ten thousand (BENCHMARKS.md, issue 18).
///
/// A kept state holds personal values as they opened when it was folded. Every state is dropped
/// as soon as the cipher destroys a key (`PersonalDataCipher.onKeysDestroyed`), however it was
/// destroyed, so no erasure path has to remember to forget them; and a state folded from values
/// opened before that is not kept after it (`PersonalDataCipher.keyDestructions`).
final class FoldedStreams: Sendable {
    private struct Key: Hashable, Sendable {
        var stream: String
        var state: ObjectIdentifier
    }

    private struct Folded: Sendable {
        var state: any Sendable
        var version: UInt64
    }

    private let kept: NIOLockedValueBox<(cache: LRUCache<Key, Folded>, keyDestructions: UInt64)>
    /// `engine_folded_states_bytes`: what the kept states hold, at most `maximumBytes`.
    private let keptBytes = Gauge(label: "engine_folded_states_bytes")

    /// At most `maximumStreams` states and `maximumBytes` of them (`StreamState.retainedBytes`): a
    /// stream whose state holds a conversation's every turn weighs what it holds, not 1.
    init(maximumStreams: Int = 16_384, maximumBytes: Int = 32 << 20) {
        kept = NIOLockedValueBox((LRUCache(capacity: maximumStreams, maximumCost: maximumBytes), 0))
    }

    /// The kept state of `stream` (nil when none is), read when keys had been destroyed
    /// `keyDestructions` times: none when that is not the count the kept states were folded at.
    func state<State: StreamState>(_: State.Type, of stream: String, keyDestructions: UInt64) -> (state: State, version: UInt64)? {
        kept.withLockedValue { kept in
            if keyDestructions > kept.keyDestructions { drop(&kept, through: keyDestructions) }
            guard keyDestructions == kept.keyDestructions else { return nil }
            let folded = kept.cache.value(for: Key(stream: stream, state: ObjectIdentifier(State.self)))
            return folded.flatMap { folded in (folded.state as? State).map { ($0, folded.version) } }
        }
    }

    /// Drops every kept state: keys had been destroyed `keyDestructions` times when the last was.
    func keysDestroyed(_ keyDestructions: UInt64) {
        kept.withLockedValue { kept in
            if keyDestructions > kept.keyDestructions { drop(&kept, through: keyDestructions) }
        }
    }

    private func drop(_ kept: inout (cache: LRUCache<Key, Folded>, keyDestructions: UInt64), through keyDestructions: UInt64) {
        kept.keyDestructions = keyDestructions
        kept.cache = LRUCache(capacity: kept.cache.capacity, maximumCost: kept.cache.maximumCost)
        keptBytes.record(0)
    }

    /// Keeps `state`, folded through `version` from values opened when keys had been destroyed
    /// `keyDestructions` times, unless a state folded further is kept already (a concurrent decision
    /// got there first) or keys were destroyed since (what was folded may hold an erased user's values).
    func keep<State: StreamState>(_ state: State, version: UInt64, of stream: String, keyDestructions: UInt64) {
        let key = Key(stream: stream, state: ObjectIdentifier(State.self))
        let cost = state.retainedBytes + heapBytes(of: CollectionOfOne(stream))
        let total = kept.withLockedValue { kept -> Int? in
            guard kept.keyDestructions == keyDestructions else { return nil }
            if let current = kept.cache.value(for: key), current.version >= version { return nil }
            kept.cache.set(Folded(state: state, version: version), for: key, cost: cost)
            return kept.cache.totalCost
        }
        if let total { keptBytes.record(total) }
    }
}
