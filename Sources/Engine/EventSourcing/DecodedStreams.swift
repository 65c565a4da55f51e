import Synchronization

/// Streams that commands have read, kept decoded, so the next command on a stream decodes only the
/// events appended since. A recorded event never changes, so a kept prefix of a stream plus the
/// events after it, read from the log, is the stream.
///
/// Decoding was a fifth of the CPU of Nuvie's `POST /movies/{id}/rate` under load: each rating folds
/// its `rating-{user}-{movie}` stream, and re-ratings make those streams longer (BENCHMARKS.md).
final class DecodedStreams<Event: Sendable & Equatable>: Sendable {
    private let streams: Mutex<(cache: LRUCache<String, [Recorded<Event>]>, forgotten: UInt64)>
    private let maximumStreamEvents: Int

    /// At most `maximumStreams` streams and `maximumEvents` events in all; a stream of more than a
    /// tenth of that is not kept.
    init(maximumStreams: Int = 2_048, maximumEvents: Int = 20_000) {
        streams = Mutex((LRUCache(capacity: maximumStreams, maximumCost: maximumEvents), 0))
        maximumStreamEvents = maximumEvents / 10
    }

    /// The stream's events as kept, possibly fewer than the log now holds, and how many times
    /// everything was forgotten so far (for `keep`).
    func prefix(of streamId: String) -> (events: [Recorded<Event>], forgotten: UInt64) {
        streams.withLock { ($0.cache.value(for: streamId) ?? [], $0.forgotten) }
    }

    /// Keeps `events`, the whole stream as just read, in place of a shorter prefix; unless everything
    /// was forgotten since the read began (an erasure: what was read may hold the erased user's values).
    func keep(_ events: [Recorded<Event>], of streamId: String, readBefore forgotten: UInt64) {
        guard events.count <= maximumStreamEvents else { return }
        streams.withLock { streams in
            guard streams.forgotten == forgotten else { return }
            streams.cache.set(events, for: streamId, cost: events.count)
        }
    }

    func removeAll() {
        streams.withLock { streams in
            streams.forgotten += 1
            streams.cache = LRUCache(capacity: streams.cache.capacity, maximumCost: streams.cache.maximumCost)
        }
    }
}
