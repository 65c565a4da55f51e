import Synchronization

/// Streams that commands have read, kept decoded, so the next command on a stream decodes only the
/// events appended since. A recorded event never changes, so a kept prefix of a stream plus the
/// events after it, read from the log, is the stream.
///
/// Decoding was a fifth of the CPU of Nuvie's `POST /movies/{id}/rate` under load: each rating folds
/// its `rating-{user}-{movie}` stream, and re-ratings make those streams longer (BENCHMARKS.md).
final class DecodedStreams<Event: Sendable & Equatable>: Sendable {
    private let streams: Mutex<LRUCache<String, [Recorded<Event>]>>
    private let maximumStreamEvents: Int

    /// At most `maximumStreams` streams and `maximumEvents` events in all; a stream of more than a
    /// tenth of that is not kept.
    init(maximumStreams: Int = 2_048, maximumEvents: Int = 20_000) {
        streams = Mutex(LRUCache(capacity: maximumStreams, maximumCost: maximumEvents))
        maximumStreamEvents = maximumEvents / 10
    }

    /// The stream's events as kept, possibly fewer than the log now holds.
    func prefix(of streamId: String) -> [Recorded<Event>] {
        streams.withLock { $0.value(for: streamId) ?? [] }
    }

    /// Keeps `events`, the whole stream as just read, in place of a shorter prefix.
    func keep(_ events: [Recorded<Event>], of streamId: String) {
        guard events.count <= maximumStreamEvents else { return }
        streams.withLock { $0.set(events, for: streamId, cost: events.count) }
    }

    func removeAll() {
        streams.withLock { $0 = LRUCache(capacity: $0.capacity, maximumCost: $0.maximumCost) }
    }
}
